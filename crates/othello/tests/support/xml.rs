//! A small XML well-formedness check for the tests of the SVG pictures (the library's, the
//! CLI's and the server's include this one file): one root element, every tag closed in
//! order, attributes quoted and given once, names well formed, `<` never in text or in an
//! attribute, every `&` the start of a known entity or a character reference. No DTD, no
//! CDATA, no namespaces checked: the pictures use none of them.

// Each test binary uses its own part.
#![allow(dead_code)]

/// One element: its name, its attributes in order, and the text directly inside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Element {
    pub name: String,
    pub attrs: Vec<(String, String)>,
    pub text: String,
}

impl Element {
    /// The value of attribute `name`.
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

fn is_name_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == ':' || !c.is_ascii()
}

fn is_name_char(c: char) -> bool {
    is_name_start(c) || c.is_ascii_digit() || c == '-' || c == '.'
}

fn name(s: &str) -> Result<(), String> {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if is_name_start(c) && chars.all(is_name_char) => Ok(()),
        _ => Err(format!("`{s}` is not an XML name")),
    }
}

/// Checks `&…;` references and the absence of `<` in text or an attribute value, and
/// returns the text with the references replaced.
fn unescape(s: &str, at: usize) -> Result<String, String> {
    if s.contains('<') {
        return Err(format!("byte {at}: `<` in text or an attribute"));
    }
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let tail = &rest[i + 1..];
        let end = tail
            .find(';')
            .ok_or_else(|| format!("byte {at}: `&` with no `;`"))?;
        let entity = &tail[..end];
        let c = match entity {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            e if e.starts_with("#x") => u32::from_str_radix(&e[2..], 16)
                .ok()
                .and_then(char::from_u32)
                .ok_or_else(|| format!("byte {at}: bad reference `&{e};`"))?,
            e if e.starts_with('#') => e[1..]
                .parse::<u32>()
                .ok()
                .and_then(char::from_u32)
                .ok_or_else(|| format!("byte {at}: bad reference `&{e};`"))?,
            e => return Err(format!("byte {at}: unknown entity `&{e};`")),
        };
        out.push(c);
        rest = &tail[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Reads the attributes of a start tag's inside (after its name).
fn attributes(mut s: &str, at: usize) -> Result<Vec<(String, String)>, String> {
    let mut attrs: Vec<(String, String)> = Vec::new();
    loop {
        let trimmed = s.trim_start();
        if trimmed.is_empty() {
            return Ok(attrs);
        }
        if trimmed.len() == s.len() && !attrs.is_empty() {
            return Err(format!("byte {at}: attributes not separated by space"));
        }
        s = trimmed;
        let eq = s
            .find('=')
            .ok_or_else(|| format!("byte {at}: attribute without `=` in `{s}`"))?;
        let n = s[..eq].trim_end();
        name(n).map_err(|e| format!("byte {at}: {e}"))?;
        let after = s[eq + 1..].trim_start();
        let quote = after
            .chars()
            .next()
            .filter(|&q| q == '"' || q == '\'')
            .ok_or_else(|| format!("byte {at}: attribute `{n}` is not quoted"))?;
        let close = after[1..]
            .find(quote)
            .ok_or_else(|| format!("byte {at}: attribute `{n}` is not closed"))?;
        let value = unescape(&after[1..1 + close], at)?;
        if attrs.iter().any(|(m, _)| m == n) {
            return Err(format!("byte {at}: attribute `{n}` given twice"));
        }
        attrs.push((n.to_owned(), value));
        s = &after[close + 2..];
    }
}

/// Checks that `doc` is well-formed XML and returns its elements in document order.
///
/// # Errors
/// What is wrong and at which byte.
pub fn parse(doc: &str) -> Result<Vec<Element>, String> {
    let mut rest = doc;
    if let Some(after) = rest.strip_prefix("<?xml") {
        let end = after
            .find("?>")
            .ok_or("the XML declaration is not closed")?;
        rest = &after[end + 2..];
    }
    let mut elements: Vec<Element> = Vec::new();
    let mut open: Vec<(String, usize)> = Vec::new();
    let mut roots = 0;
    loop {
        let at = doc.len() - rest.len();
        let Some(lt) = rest.find('<') else {
            if !rest.trim().is_empty() {
                return Err(format!("byte {at}: text after the root element"));
            }
            break;
        };
        let text = unescape(&rest[..lt], at)?;
        match open.last() {
            Some(&(_, i)) => elements[i].text.push_str(&text),
            None if !text.trim().is_empty() => {
                return Err(format!("byte {at}: text outside the root element"))
            }
            None => {}
        }
        rest = &rest[lt..];
        let at = doc.len() - rest.len();
        if let Some(after) = rest.strip_prefix("<!--") {
            let end = after.find("-->").ok_or("a comment is not closed")?;
            rest = &after[end + 3..];
            continue;
        }
        let gt = rest
            .find('>')
            .ok_or_else(|| format!("byte {at}: a tag is not closed"))?;
        let tag = &rest[1..gt];
        rest = &rest[gt + 1..];
        if let Some(closing) = tag.strip_prefix('/') {
            let closing = closing.trim_end();
            match open.pop() {
                Some((n, _)) if n == closing => {}
                Some((n, _)) => return Err(format!("byte {at}: `</{closing}>` closes `<{n}>`")),
                None => return Err(format!("byte {at}: `</{closing}>` closes nothing")),
            }
            continue;
        }
        let (tag, empty) = match tag.strip_suffix('/') {
            Some(t) => (t, true),
            None => (tag, false),
        };
        let end = tag.find(char::is_whitespace).unwrap_or(tag.len());
        let n = &tag[..end];
        name(n).map_err(|e| format!("byte {at}: {e}"))?;
        let attrs = attributes(&tag[end..], at)?;
        if open.is_empty() {
            roots += 1;
            if roots > 1 {
                return Err(format!("byte {at}: a second root element `<{n}>`"));
            }
        }
        elements.push(Element {
            name: n.to_owned(),
            attrs,
            text: String::new(),
        });
        if !empty {
            open.push((n.to_owned(), elements.len() - 1));
        }
    }
    if let Some((n, _)) = open.last() {
        return Err(format!("`<{n}>` is never closed"));
    }
    if roots == 0 {
        return Err("no root element".to_owned());
    }
    Ok(elements)
}

/// The checker catches what it claims to.
pub fn self_check() {
    assert!(parse("<a><b x=\"1\"/>t &amp; &#x2212;</a>").is_ok());
    for bad in [
        "",
        "<a>",
        "<a></b>",
        "<a/><b/>",
        "<a x=1/>",
        "<a x=\"1\" x=\"2\"/>",
        "<a>&nbsp;</a>",
        "<a>1 < 2</a>",
        "<a x=\"<\"/>",
        "<a>&amp</a>",
        "<1a/>",
        "text<a/>",
    ] {
        assert!(parse(bad).is_err(), "`{bad}` is not well-formed");
    }
}
