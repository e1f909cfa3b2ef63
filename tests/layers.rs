//! The layers of `src/`, checked: every file's references to the crate's
//! modules (`use crate::…`, `crate::…::f()`, `super::…`, `arbiter::…` in
//! `main.rs`) point down or across, never up, and neither the top-level
//! modules nor the files of any folder import each other in a circle (a
//! child folder counts as one file of its parent; a `mod.rs`'s `pub use`
//! re-exports are its front door, not imports, and a path through them is
//! read to the file that defines the item).
//!
//! The layers, lowest first (docs/architecture.md draws them):
//!
//! 0. `variants` (the rules core)
//! 1. `search`, `tablebase`, `prose`, `diagram`, `pgn`
//! 2. `dispatch`, `training`
//! 3. `api`, `uci`, `fuzzing`
//! 4. `main.rs`
//!
//! Test code (`tests.rs`, `*_tests.rs`, items under `#[cfg(test)]`) is left
//! out: a test of the core may check the words `prose` gives its verdicts.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layer of a top-level module, `None` for one the table does not know.
fn layer(module: &str) -> Option<u8> {
    Some(match module {
        "variants" => 0,
        "search" | "tablebase" | "prose" | "diagram" | "pgn" => 1,
        "dispatch" | "training" => 2,
        "api" | "uci" | "fuzzing" => 3,
        "main" => 4,
        _ => return None,
    })
}

/// A source file: its path under `src/` (`api/replay.rs`) and its text.
struct File {
    path: String,
    text: String,
}

/// The module path of a file: `api/replay.rs` is `[api, replay]`,
/// `api/mod.rs` is `[api]`, `lib.rs` is `[]`; `main.rs` is its own crate.
fn module_of(path: &str) -> Vec<String> {
    let path = path.trim_end_matches(".rs");
    let mut parts: Vec<String> = path.split('/').map(str::to_owned).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// Whether a file holds only test code.
fn is_test_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name == "tests.rs" || name.ends_with("_tests.rs")
}

/// The text with comments, string and character literals blanked out.
fn strip(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c[i] == 'r' && (next == Some('"') || next == Some('#')) && !ident_before(&c, i) {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while c.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            j += 1;
            while j < c.len() {
                if c[j] == '"' && (0..hashes).all(|k| c.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c[i] == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c[i] == '\'' && next == Some('\\') {
            i += 3;
            while i < c.len() && c[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else if c[i] == '\'' && c.get(i + 2) == Some(&'\'') {
            i += 3;
            out.push_str("' '");
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

fn ident_before(c: &[char], i: usize) -> bool {
    i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_')
}

/// A token of the stripped text: a word, `::`, or one other character.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Word(String),
    Path,
    Punct(char),
}

fn tokens(text: &str) -> Vec<Token> {
    let c: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if c[i].is_alphanumeric() || c[i] == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push(Token::Word(c[start..i].iter().collect()));
        } else if c[i] == ':' && c.get(i + 1) == Some(&':') {
            out.push(Token::Path);
            i += 2;
        } else {
            if !c[i].is_whitespace() {
                out.push(Token::Punct(c[i]));
            }
            i += 1;
        }
    }
    out
}

/// The tokens without the items under `#[cfg(test)]`.
fn without_tests(tokens: Vec<Token>) -> Vec<Token> {
    let attr: Vec<Token> = tokens_of("#[cfg(test)]");
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i..].starts_with(&attr) {
            i += attr.len();
            // The item: up to its `;`, or to the end of its first block.
            let mut depth = 0i32;
            while i < tokens.len() {
                match tokens[i] {
                    Token::Punct('{') => depth += 1,
                    Token::Punct('}') => {
                        depth -= 1;
                        if depth == 0 {
                            i += 1;
                            break;
                        }
                    }
                    Token::Punct(';') if depth == 0 => {
                        i += 1;
                        break;
                    }
                    _ => {}
                }
                i += 1;
            }
        } else {
            out.push(tokens[i].clone());
            i += 1;
        }
    }
    out
}

fn tokens_of(text: &str) -> Vec<Token> {
    tokens(text)
}

/// Every path the tokens name from a root (`crate`, `super`, `self`,
/// `arbiter`, or a child module `children` lists), `{…}` groups expanded:
/// `use super::{a, b::c}` names `super::a` and `super::b::c`.
fn paths(tokens: &[Token], children: &BTreeSet<String>) -> Vec<Vec<String>> {
    let roots = ["crate", "super", "self", "arbiter"];
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let start = match &tokens[i] {
            Token::Word(w) => {
                let after_path = i > 0 && tokens[i - 1] == Token::Path;
                // `pub(in crate::a)` names where an item is seen, not an import.
                let visibility = i > 0 && tokens[i - 1] == Token::Word("in".to_owned());
                let is_root = roots.contains(&w.as_str()) || children.contains(w);
                !after_path && !visibility && is_root && tokens.get(i + 1) == Some(&Token::Path)
            }
            _ => false,
        };
        i = if start {
            tree(tokens, i, Vec::new(), &mut out)
        } else {
            i + 1
        };
    }
    out
}

/// Reads the path (or use tree) at `i`, after `prefix`, into `out`;
/// returns where it ends.
fn tree(
    tokens: &[Token],
    mut i: usize,
    mut prefix: Vec<String>,
    out: &mut Vec<Vec<String>>,
) -> usize {
    loop {
        match tokens.get(i) {
            Some(Token::Word(w)) => {
                prefix.push(w.clone());
                i += 1;
                if tokens.get(i) == Some(&Token::Path) {
                    i += 1;
                } else {
                    out.push(prefix);
                    return i;
                }
            }
            Some(Token::Punct('{')) => {
                i += 1;
                loop {
                    match tokens.get(i) {
                        Some(Token::Punct('}')) | None => return i + 1,
                        Some(Token::Punct(',')) => i += 1,
                        Some(Token::Word(_)) | Some(Token::Punct('{')) => {
                            i = tree(tokens, i, prefix.clone(), out);
                            // Skip `as name` and anything else up to the next item.
                            while let Some(t) = tokens.get(i) {
                                if matches!(t, Token::Punct(',') | Token::Punct('}')) {
                                    break;
                                }
                                i += 1;
                            }
                        }
                        Some(_) => i += 1,
                    }
                }
            }
            _ => {
                out.push(prefix);
                return i;
            }
        }
    }
}

/// A path as the crate's absolute path, from the module it is written in;
/// `None` for a path outside the crate.
fn absolute(path: &[String], module: &[String], in_main: bool) -> Option<Vec<String>> {
    let mut at: Vec<String> = module.to_vec();
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") if in_main => return Some(vec!["main".to_owned()]),
        Some("crate") => {
            at.clear();
            rest = &rest[1..];
        }
        Some("arbiter") if in_main => {
            at.clear();
            rest = &rest[1..];
        }
        Some("arbiter") => return None,
        _ => {}
    }
    while let Some(first) = rest.first() {
        match first.as_str() {
            "super" => {
                at.pop()?;
            }
            "self" => {}
            _ => break,
        }
        rest = &rest[1..];
    }
    at.extend(rest.iter().cloned());
    // `use x::{self, …}` names `x`.
    if at.last().is_some_and(|s| s == "self") {
        at.pop();
    }
    Some(at)
}

/// A `mod.rs`'s re-exports (`pub use child::Item;`, `pub(crate) use …`)
/// taken out of its tokens: a folder's front door names what its files
/// define, it does not depend on them. Returns the rest of the tokens and
/// the re-exports' statements.
fn facade(tokens: Vec<Token>) -> (Vec<Token>, Vec<Token>) {
    let mut rest = Vec::new();
    let mut statements = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let mut j = i;
        if tokens[j] == Token::Word("pub".to_owned()) {
            j += 1;
            if tokens.get(j) == Some(&Token::Punct('(')) {
                while j < tokens.len() && tokens[j] != Token::Punct(')') {
                    j += 1;
                }
                j += 1;
            }
            if tokens.get(j) == Some(&Token::Word("use".to_owned())) {
                let end = (j..tokens.len())
                    .find(|&k| tokens[k] == Token::Punct(';'))
                    .unwrap_or(tokens.len());
                statements.extend_from_slice(&tokens[j + 1..end]);
                statements.push(Token::Punct(';'));
                i = end + 1;
                continue;
            }
        }
        rest.push(tokens[i].clone());
        i += 1;
    }
    (rest, statements)
}

/// What the tree's files refer to: (the referring file, its top-level
/// module, the absolute path referred to).
struct Reference {
    file: String,
    from: String,
    to: Vec<String>,
}

fn references(files: &[File]) -> Vec<Reference> {
    let known: BTreeSet<String> = files.iter().map(|f| f.path.clone()).collect();
    // Each file read: its module, its tokens; the mod.rs files' re-exports
    // apart, as a map from the name outside to the item's own path.
    let mut read = Vec::new();
    let mut reexports: BTreeMap<Vec<String>, Vec<String>> = BTreeMap::new();
    for f in files {
        if is_test_file(&f.path) || f.path == "lib.rs" {
            continue;
        }
        let in_main = f.path == "main.rs";
        let module = if in_main {
            Vec::new()
        } else {
            module_of(&f.path)
        };
        // A `mod.rs` (or `lib.rs`) names its child modules by their bare names.
        let dir = match f.path.rsplit_once('/') {
            Some((dir, "mod.rs")) => format!("{dir}/"),
            _ => String::from("\u{0}"),
        };
        let children: BTreeSet<String> = known
            .iter()
            .filter_map(|k| k.strip_prefix(&dir))
            .map(|rest| {
                rest.split('/')
                    .next()
                    .unwrap_or(rest)
                    .trim_end_matches(".rs")
                    .to_owned()
            })
            .filter(|c| c != "mod")
            .collect();
        let mut toks = without_tests(tokens(&strip(&f.text)));
        if f.path.ends_with("/mod.rs") {
            let (rest, front) = facade(toks);
            toks = rest;
            for p in paths(&front, &children) {
                let p = rooted(p, &children);
                if let Some(to) = absolute(&p, &module, false) {
                    let mut outside = module.clone();
                    outside.extend(to.last().cloned());
                    reexports.insert(outside, to);
                }
            }
        }
        read.push((f, in_main, module, children, toks));
    }
    let mut out = Vec::new();
    for (f, in_main, module, children, toks) in read {
        let from = if in_main {
            "main".to_owned()
        } else {
            module[0].clone()
        };
        for p in paths(&toks, &children) {
            let p = rooted(p, &children);
            if let Some(to) = absolute(&p, &module, in_main) {
                if !to.is_empty() {
                    out.push(Reference {
                        file: f.path.clone(),
                        from: from.clone(),
                        to: through(to, &reexports),
                    });
                }
            }
        }
    }
    out
}

/// A path that starts at a child module's bare name, from `self`.
fn rooted(p: Vec<String>, children: &BTreeSet<String>) -> Vec<String> {
    if children.contains(&p[0]) {
        let mut q = vec!["self".to_owned()];
        q.extend(p);
        q
    } else {
        p
    }
}

/// A path through the folders' re-exports to the item's own path:
/// `variants::Game` is `variants::game::Game`.
fn through(mut to: Vec<String>, reexports: &BTreeMap<Vec<String>, Vec<String>>) -> Vec<String> {
    for _ in 0..8 {
        let found = (1..=to.len()).rev().find_map(|n| {
            reexports
                .get(&to[..n])
                .filter(|target| **target != to[..n])
                .map(|target| (n, target.clone()))
        });
        match found {
            Some((n, mut target)) => {
                target.extend(to[n..].iter().cloned());
                to = target;
            }
            None => break,
        }
    }
    to
}

/// The file an absolute path inside the folder `dir` (`api`,
/// `variants/xiangqi`) lands in, as a node of that folder's graph:
/// `api/x.rs` for `api::x::…`, the child folder's `api/x/mod.rs` for a
/// path into it, else the folder's own `api/mod.rs`.
fn file_in(dir: &str, to: &[String], known: &BTreeSet<String>) -> Option<String> {
    let parts: Vec<&str> = dir.split('/').collect();
    if to.len() < parts.len() || to.iter().zip(&parts).any(|(a, b)| a != b) {
        return None;
    }
    if let Some(child) = to.get(parts.len()) {
        for candidate in [format!("{dir}/{child}.rs"), format!("{dir}/{child}/mod.rs")] {
            if known.contains(&candidate) {
                return Some(candidate);
            }
        }
    }
    Some(format!("{dir}/mod.rs"))
}

/// The node a file is in the graph of the folder `dir`: the file itself
/// where it lies in `dir`, the `mod.rs` of the child folder it lies in
/// otherwise; `None` outside `dir`.
fn node_in(dir: &str, file: &str) -> Option<String> {
    let rest = file.strip_prefix(dir)?.strip_prefix('/')?;
    Some(match rest.split_once('/') {
        None => file.to_owned(),
        Some((child, _)) => format!("{dir}/{child}/mod.rs"),
    })
}

/// Every folder of the tree: the folders that hold a `mod.rs`.
fn folders(known: &BTreeSet<String>) -> Vec<String> {
    known
        .iter()
        .filter_map(|k| k.strip_suffix("/mod.rs"))
        .map(str::to_owned)
        .collect()
}

/// A circle in a graph, if there is one, as the nodes around it.
fn circle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(node.to_owned(), 1);
        stack.push(node.to_owned());
        for next in edges.get(node).into_iter().flatten() {
            match state.get(next.as_str()) {
                Some(1) => {
                    let at = stack.iter().position(|n| n == next).unwrap_or(0);
                    let mut found = stack[at..].to_vec();
                    found.push(next.clone());
                    return Some(found);
                }
                Some(_) => {}
                None => {
                    if let Some(found) = visit(next, edges, state, stack) {
                        return Some(found);
                    }
                }
            }
        }
        stack.pop();
        state.insert(node.to_owned(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in edges.keys() {
        if !state.contains_key(node.as_str()) {
            if let Some(found) = visit(node, edges, &mut state, &mut Vec::new()) {
                return Some(found);
            }
        }
    }
    None
}

/// Everything wrong with the tree's layering, one line each.
fn violations(files: &[File]) -> Vec<String> {
    let known: BTreeSet<String> = files.iter().map(|f| f.path.clone()).collect();
    let refs = references(files);
    let mut wrong = Vec::new();
    let mut modules: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut folder: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    let dirs = folders(&known);
    // One import behind each edge of a folder's graph, to name it.
    let mut because: BTreeMap<(String, String), String> = BTreeMap::new();
    for r in &refs {
        let to = &r.to[0];
        if *to != r.from {
            match (layer(&r.from), layer(to)) {
                (Some(a), Some(b)) if b > a => wrong.push(format!(
                    "{} imports {} from a higher layer ({} is layer {a}, {to} layer {b})",
                    r.file,
                    r.to.join("::"),
                    r.from
                )),
                (None, _) => wrong.push(format!("{}: module {} has no layer", r.file, r.from)),
                (_, None) => wrong.push(format!("{}: module {to} has no layer", r.file)),
                _ => {}
            }
            modules
                .entry(r.from.clone())
                .or_default()
                .insert(to.clone());
        }
        for dir in &dirs {
            let (Some(node), Some(target)) = (node_in(dir, &r.file), file_in(dir, &r.to, &known))
            else {
                continue;
            };
            if target != node {
                because
                    .entry((node.clone(), target.clone()))
                    .or_insert_with(|| r.to.join("::"));
                folder
                    .entry(dir.clone())
                    .or_default()
                    .entry(node)
                    .or_default()
                    .insert(target);
            }
        }
    }
    if let Some(c) = circle(&modules) {
        wrong.push(format!(
            "the modules import each other in a circle: {}",
            c.join(" -> ")
        ));
    }
    for (dir, edges) in &folder {
        if let Some(c) = circle(edges) {
            let named: Vec<String> = c
                .windows(2)
                .map(|w| {
                    let why = &because[&(w[0].clone(), w[1].clone())];
                    format!("{} -> ({why})", w[0])
                })
                .collect();
            wrong.push(format!(
                "the files of src/{dir} import each other in a circle: {} {}",
                named.join(" "),
                c[c.len() - 1]
            ));
        }
    }
    wrong
}

/// Every `.rs` file under `dir`, with its path relative to `root`.
fn read_tree(root: &Path, dir: &Path, out: &mut Vec<File>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            read_tree(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(File {
                path: path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/"),
                text: std::fs::read_to_string(&path).unwrap(),
            });
        }
    }
}

fn src() -> Vec<File> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    read_tree(&root, &root, &mut files);
    files
}

#[test]
fn every_import_points_down_and_nothing_imports_in_a_circle() {
    let files = src();
    assert!(files.iter().any(|f| f.path == "api/mod.rs"));
    // The checker sees the tree's imports (a few it must see).
    let refs = references(&files);
    let sees = |file: &str, to: &str| {
        refs.iter()
            .any(|r| r.file == file && r.to.join("::").starts_with(to))
    };
    assert!(sees("uci/go.rs", "dispatch::"));
    assert!(sees("api/replay.rs", "api::rules::rules_of"));
    assert!(sees("api/routes/mod.rs", "api::routes::analyze::"));
    assert!(sees("main.rs", "api::server::"));
    let wrong = violations(&files);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The checker sees what it must: imports of every form, and nothing in
/// comments, strings or tests.
#[test]
fn the_checker_reads_every_form_of_import() {
    let file = |path: &str, text: &str| File {
        path: path.to_owned(),
        text: text.to_owned(),
    };
    let files = [
        file("api/mod.rs", "pub mod a;\npub mod b;\nuse a::X;\nfn f() { b::g(); }"),
        file(
            "api/a.rs",
            "use super::{b, mod_item as m};\nuse crate::{variants::Game, search::{self, Limits}};\n// crate::uci::run\nconst S: &str = \"crate::uci::\";\nfn f() { crate::prose::words(); }\npub(in crate::api) fn g() {}\n#[cfg(test)]\nmod tests { use crate::uci; }",
        ),
        file("api/b.rs", ""),
    ];
    let refs = references(&files);
    let of = |file: &str| -> Vec<String> {
        refs.iter()
            .filter(|r| r.file == file)
            .map(|r| r.to.join("::"))
            .collect()
    };
    assert_eq!(of("api/mod.rs"), ["api::a::X", "api::b::g"]);
    assert_eq!(
        of("api/a.rs"),
        [
            "api::b",
            "api::mod_item",
            "variants::Game",
            "search",
            "search::Limits",
            "prose::words"
        ]
    );
}

/// A planted upward import is caught: the core naming the API.
#[test]
fn an_upward_import_fails() {
    let files = [
        File {
            path: "variants/mod.rs".to_owned(),
            text: "pub fn f() -> crate::api::wire::Side { todo!() }".to_owned(),
        },
        File {
            path: "pgn.rs".to_owned(),
            text: "use crate::dispatch::Visitor;\nuse crate::variants::GameResult;".to_owned(),
        },
        File {
            path: "main.rs".to_owned(),
            text: "use arbiter::api::server::ServeArgs;".to_owned(),
        },
    ];
    let wrong = violations(&files);
    assert_eq!(wrong.len(), 2, "{wrong:?}");
    assert!(wrong[0].starts_with("variants/mod.rs imports api::wire::Side from a higher layer"));
    assert!(wrong[1].starts_with("pgn.rs imports dispatch::Visitor from a higher layer"));
}

/// Planted circles are caught: between top-level modules of one layer, and
/// between files of `src/api` (through `super::` and the module's own items).
#[test]
fn a_circle_fails() {
    let file = |path: &str, text: &str| File {
        path: path.to_owned(),
        text: text.to_owned(),
    };
    let modules = [
        file("prose/mod.rs", "use crate::pgn::Record;"),
        file("pgn.rs", "use crate::prose::Prose;"),
    ];
    assert_eq!(
        violations(&modules),
        ["the modules import each other in a circle: pgn -> prose -> pgn"]
    );
    let api = [
        file(
            "api/mod.rs",
            "pub mod error;\npub mod wire;\npub const LIMIT: usize = 1;\nuse wire::Side;",
        ),
        file("api/wire.rs", "use super::error::ApiError;"),
        file("api/error.rs", "fn f() -> usize { super::LIMIT }"),
    ];
    assert_eq!(
        violations(&api),
        ["the files of src/api import each other in a circle: api/error.rs -> (api::LIMIT) api/mod.rs -> (api::wire::Side) api/wire.rs -> (api::error::ApiError) api/error.rs"]
    );
    // In a folder at any depth, through a front door's re-export: `super::A`
    // is `a.rs`'s, so b.rs and a.rs import each other; the re-export itself
    // is no import.
    let nested = [
        file(
            "variants/x/mod.rs",
            "mod a;\nmod b;\npub use a::A;\npub(crate) use b::B;",
        ),
        file("variants/x/a.rs", "pub struct A(super::b::B);"),
        file("variants/x/b.rs", "pub struct B;\nfn f(_: super::A) {}"),
    ];
    assert_eq!(
        violations(&nested),
        ["the files of src/variants/x import each other in a circle: variants/x/a.rs -> (variants::x::b::B) variants/x/b.rs -> (variants::x::a::A) variants/x/a.rs"]
    );
    // Without the item of mod.rs there is no circle.
    let api = [
        file(
            "api/mod.rs",
            "pub mod error;\npub mod wire;\nuse wire::Side;",
        ),
        file("api/wire.rs", "use super::error::ApiError;"),
        file("api/error.rs", ""),
    ];
    assert!(violations(&api).is_empty());
}

/// The house's bound on a file's length: a file past it is split by job
/// (a route into a folder with its `schema.rs`, a module's tests beside it).
const MOST_LINES: usize = 600;

#[test]
fn no_file_under_src_is_longer_than_the_bound() {
    let files = src();
    assert!(
        files.len() > 100,
        "the tree was read: {} files",
        files.len()
    );
    let long: Vec<String> = files
        .iter()
        .map(|f| (f.path.as_str(), f.text.lines().count()))
        .filter(|&(_, n)| n > MOST_LINES)
        .map(|(p, n)| format!("src/{p}: {n} lines"))
        .collect();
    assert!(
        long.is_empty(),
        "over {MOST_LINES} lines: {}",
        long.join(", ")
    );
}
