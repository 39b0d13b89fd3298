//! The page's ES modules: every `import` of every script in `crates/server/web` names a file
//! the server serves as JavaScript, the page's one module script is served, and every script
//! of the folder is reached from it (a module nothing imports would be dead weight, and a file
//! left out of the asset list a 404 in the browser that no Rust test sees).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use ply_server::assets::ASSETS;

fn web_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("web")
}

/// The `.js` files under `dir`, by the path the page asks for (`/render/board.js`).
fn scripts(dir: &Path, at: &str, out: &mut BTreeMap<String, String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        if path.is_dir() {
            scripts(&path, &format!("{at}{name}/"), out);
        } else if name.ends_with(".js") {
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            out.insert(format!("{at}{name}"), text);
        }
    }
}

/// The specifiers of a module's static imports and re-exports, with their line numbers:
/// `import … from "./x.js"`, `} from "../x.js"` closing a list over several lines,
/// `import "./x.js"` and `export … from "./x.js"`.
fn imports(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let t = line.trim_start();
        let spec = if t.starts_with("import \"") {
            &t["import ".len()..]
        } else if (t.starts_with("import ") || t.starts_with("} from ") || t.starts_with("export "))
            && t.contains(" from \"")
        {
            &t[t.find(" from \"").unwrap() + " from ".len()..]
        } else {
            continue;
        };
        let spec = &spec[1..];
        let end = spec
            .find('"')
            .unwrap_or_else(|| panic!("line {}: an import without its closing quote", k + 1));
        out.push((k + 1, spec[..end].to_owned()));
    }
    out
}

/// The path `spec` names from the module served at `from`, as the browser resolves it.
fn resolve(from: &str, spec: &str) -> Option<String> {
    if !(spec.starts_with("./") || spec.starts_with("../")) {
        return None;
    }
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for part in spec.split('/') {
        match part {
            "." => {}
            ".." => {
                if parts.len() <= 1 {
                    return None;
                }
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

#[test]
fn resolve_follows_the_browser() {
    assert_eq!(resolve("/main.js", "./api.js").as_deref(), Some("/api.js"));
    assert_eq!(
        resolve("/main.js", "./render/board.js").as_deref(),
        Some("/render/board.js")
    );
    assert_eq!(
        resolve("/render/board.js", "../game.js").as_deref(),
        Some("/game.js")
    );
    assert_eq!(resolve("/main.js", "../x.js"), None);
    assert_eq!(resolve("/main.js", "rules.js"), None);
    assert_eq!(
        imports(
            "import { a } from \"./a.js\";\nimport {\n  b,\n} from \"../b.js\";\n\
             import \"./c.js\";\nconst s = \"from \\\"x\\\"\";"
        ),
        vec![
            (1, "./a.js".to_owned()),
            (4, "../b.js".to_owned()),
            (5, "./c.js".to_owned())
        ]
    );
}

#[test]
fn every_import_of_the_page_is_a_served_module() {
    let served: BTreeMap<&str, &ply_server::assets::Asset> =
        ASSETS.iter().map(|a| (a.path, a)).collect();
    let mut files = BTreeMap::new();
    scripts(&web_dir(), "/", &mut files);
    assert!(files.contains_key("/main.js"), "{files:?}");

    // The page loads one module script; the rest come through its imports.
    let page = std::fs::read_to_string(web_dir().join("index.html")).unwrap();
    let entry = "<script type=\"module\" src=\"/main.js\"></script>";
    assert!(page.contains(entry), "index.html does not load {entry}");
    assert_eq!(
        page.matches("<script").count(),
        1,
        "index.html loads one script"
    );

    let mut problems = Vec::new();
    let mut edges = 0;
    for (path, text) in &files {
        match served.get(path.as_str()) {
            Some(asset) => {
                if !asset.content_type.starts_with("text/javascript") {
                    problems.push(format!("{path} is served as {}", asset.content_type));
                }
                if asset.body != text.as_bytes() {
                    problems.push(format!("{path} is served from another file"));
                }
            }
            None => problems.push(format!("{path} is not in assets.rs")),
        }
        for (line, spec) in imports(text) {
            edges += 1;
            match resolve(path, &spec) {
                None => problems.push(format!(
                    "{path}:{line}: `{spec}` is not a relative path the browser can load"
                )),
                Some(target) => {
                    if !files.contains_key(&target) {
                        problems.push(format!("{path}:{line}: `{spec}` names no file of web/"));
                    }
                    if !served.contains_key(target.as_str()) {
                        problems.push(format!("{path}:{line}: `{spec}` ({target}) is not served"));
                    }
                }
            }
        }
    }
    assert!(edges >= files.len() - 1, "only {edges} imports found");

    // Every script of the folder is reached from main.js.
    let mut reached = BTreeSet::from(["/main.js".to_owned()]);
    let mut todo = vec!["/main.js".to_owned()];
    while let Some(path) = todo.pop() {
        for (_, spec) in imports(&files[&path]) {
            if let Some(target) = resolve(&path, &spec) {
                if files.contains_key(&target) && reached.insert(target.clone()) {
                    todo.push(target);
                }
            }
        }
    }
    for path in files.keys() {
        if !reached.contains(path) {
            problems.push(format!("{path} is imported by no module of the page"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The page's state objects and the module that owns each: only it changes them, through
/// its functions (`setSettings`, `setInput`, `setGame`, `goTo`, `clearErrors`, ...).
const OWNERS: [(&str, &str); 4] = [
    ("settings", "/settings.js"),
    ("input", "/settings.js"),
    ("game", "/game.js"),
    ("analyses", "/api.js"),
];

/// The writes to `state` in `text`, by line: `state.field = …` (also `+=`, `-=`, `++`,
/// `--`) and `state.field.set(…)` (or `delete`, `clear`, `add`, `push`, `splice`).
fn writes(text: &str, state: &str) -> Vec<usize> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let needle = format!("{state}.");
        let mut from = 0;
        while let Some(i) = line[from..].find(&needle).map(|i| i + from) {
            from = i + needle.len();
            if line[..i]
                .chars()
                .next_back()
                .is_some_and(|c| ident(c) || c == '.')
            {
                continue;
            }
            let rest = &line[from..];
            let field = rest.len() - rest.trim_start_matches(ident).len();
            let after = rest[field..].trim_start();
            let assigned = (after.starts_with('=') && !after.starts_with("=="))
                || ["+=", "-=", "++", "--"]
                    .iter()
                    .any(|op| after.starts_with(op));
            let mutated = ["set(", "delete(", "clear(", "add(", "push(", "splice("]
                .iter()
                .any(|m| after.strip_prefix('.').is_some_and(|a| a.starts_with(m)));
            if field > 0 && (assigned || mutated) {
                out.push(k + 1);
            }
        }
    }
    out
}

#[test]
fn the_page_s_state_is_changed_only_by_the_module_that_owns_it() {
    // The scan finds what it looks for, and leaves reads alone.
    assert_eq!(
        writes(
            "settings.size = 4;\nif (settings.size === 4) x();",
            "settings"
        ),
        [1]
    );
    assert_eq!(
        writes("  game.plyNotes.clear();\n  mygame.at = 1;", "game"),
        [1]
    );
    assert_eq!(
        writes("input.cursor += 1; analyses.errors.get(k)", "input"),
        [1]
    );
    assert!(writes("analyses.errors.get(k); a.game.at = 2", "analyses").is_empty());
    let mut files = BTreeMap::new();
    scripts(&web_dir(), "/", &mut files);
    let mut problems = Vec::new();
    for (path, text) in &files {
        for (state, owner) in OWNERS {
            if path != owner {
                for line in writes(text, state) {
                    problems.push(format!(
                        "{path}:{line} changes `{state}`, which {owner} owns: call one of its functions"
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
