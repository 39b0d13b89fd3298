//! `ply bench eval --obf FILE --depth D|--ms MS`: the anchors' table (best move, within 3
//! and 6 discs, MAE, nodes, time) on a file whose every move is scored.

mod common;

use std::fs;

use common::{ply, stderr, stdout};

/// `ply bench eval --obf FILE --depth D`: every position of a file whose every move is scored
/// exactly (`edax-shape.obf`, solved by ply), each row's chosen move set against the file's
/// scores, and the summary the published tables print recomputed here from the rows.
#[test]
fn bench_eval_at_a_fixed_depth_prints_the_anchors_table() {
    let file = format!(
        "{}/../../testdata/edax-shape.obf",
        env!("CARGO_MANIFEST_DIR")
    );
    let o = ply(&["bench", "eval", "--obf", &file, "--depth", "2", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let judged: Vec<_> = rows.iter().filter(|r| r["kind"] == "judgement").collect();
    assert_eq!(judged.len(), 6, "every position of the file: {rows:?}");
    let text = fs::read_to_string(&file).unwrap();
    let (mut best, mut top2, mut within3, mut nodes, mut loss) = (0, 0, 0, 0, 0);
    let mut errors = 0.0;
    for (r, line) in judged.iter().zip(text.lines()) {
        let int = |k: &str| r[k].as_i64().unwrap_or_else(|| panic!("{k}: {r}"));
        // The chosen move's score is the one the file gives it.
        let chose = r["chose"].as_str().unwrap().to_uppercase();
        let its: i64 = line
            .split(';')
            .find_map(|slot| slot.trim().strip_prefix(&format!("{chose}:")))
            .unwrap_or_else(|| panic!("{chose} not in {line}"))
            .parse()
            .unwrap();
        assert_eq!(int("its"), its, "{r}");
        assert_eq!(int("loss"), int("score") - its, "{r}");
        assert_eq!(r["chose_best"], its == int("score"), "{r}");
        assert_eq!(int("depth"), 2, "{r}");
        let error = (r["estimate"].as_f64().unwrap() - int("score") as f64).abs();
        assert!((r["error"].as_f64().unwrap() - error).abs() < 0.011, "{r}");
        best += usize::from(its == int("score"));
        top2 += usize::from(int("rank") < 2);
        within3 += usize::from(r["error"].as_f64().unwrap() <= 3.0);
        nodes += int("nodes");
        loss += int("loss");
        errors += r["error"].as_f64().unwrap();
    }
    let sum = rows.last().unwrap();
    assert_eq!(sum["kind"], "judgement summary");
    assert_eq!(
        (sum["positions"].as_u64(), sum["limit"].as_str()),
        (Some(6), Some("depth 2"))
    );
    assert_eq!(sum["threads"], 1);
    assert_eq!(sum["chose_best"], best);
    assert_eq!(sum["top2"], top2);
    assert_eq!(sum["within3"], within3);
    assert_eq!(sum["nodes"], nodes);
    assert_eq!(sum["scored_choices"], 6);
    // Each row's error and the mean are rounded to hundredths apart.
    assert!(
        (sum["mae"].as_f64().unwrap() - errors / 6.0).abs() < 0.011,
        "{sum}"
    );
    let mean_loss = (loss as f64 / 6.0 * 100.0).round() / 100.0;
    assert_eq!(sum["mean_loss"].as_f64(), Some(mean_loss), "{sum}");

    // The text names each column of the table.
    let o = ply(&[
        "bench", "eval", "--obf", &file, "--depth", "2", "--judge", "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for column in [
        "2 positions, depth 2, one thread",
        "best move",
        "top 2 move",
        "score ±6",
        "MAE",
        "mean loss",
        "NPS",
    ] {
        assert!(out.contains(column), "{column}: {out}");
    }

    // Usage errors name the flag.
    for (args, want) in [
        (vec!["--depth", "0"], "--depth 0"),
        (vec!["--depth", "3", "--ms", "10"], "--ms"),
        (vec!["--threads", "0"], "--threads 0"),
        (vec!["--judge", "0"], "--judge 0"),
    ] {
        let mut a = vec!["bench", "eval", "--obf", &file];
        a.extend(args);
        let o = ply(&a);
        assert_eq!(o.status.code(), Some(2), "{a:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{a:?}: {}", stderr(&o));
    }
    // A missing file is bad input, named.
    let o = ply(&["bench", "eval", "--obf", "no-such.obf", "--depth", "3"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no-such.obf: no such file"),
        "{}",
        stderr(&o)
    );
    let o = ply(&["bench", "eval", "--depth", "3"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--obf"), "{}", stderr(&o));
}
