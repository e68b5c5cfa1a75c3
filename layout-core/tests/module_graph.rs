//! The modules of layout-core import one another without a circle: a reader can take any module
//! with only the modules below it in mind.
//!
//! The graph is read from the source: an edge `a -> b` for every path in `a`'s code (outside
//! its tests) that leads into module `b`, following re-exports (`pub use`) to the module that
//! defines the item, so that a module importing `crate::Mapping` depends on `mapping`, not on
//! the crate root. Declaring a child module (`mod b;`) is not an edge; using its items is.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module: its path from the crate root (`["relayout", "kernels"]`).
type Module = Vec<String>;

struct Source {
    /// Each module's code, tests removed.
    code: BTreeMap<Module, String>,
}

impl Source {
    fn read(root: &Path) -> Self {
        let mut code = BTreeMap::new();
        let mut pending = vec![root.to_path_buf()];
        while let Some(dir) = pending.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    pending.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let module = module_of(root, &path);
                    let text = std::fs::read_to_string(&path).unwrap();
                    code.insert(module, without_tests_and_comments(&text));
                }
            }
        }
        Source { code }
    }

    /// The module that `path`, written in `from`, leads into; `None` outside the crate.
    fn resolve(&self, from: &Module, path: &[&str]) -> Option<Module> {
        let mut at: Module = match path.first()? {
            &"crate" => Vec::new(),
            &"super" | &"self" => from.clone(),
            _ => return None,
        };
        let mut rest = &path[1..];
        if path[0] == "super" {
            at.pop();
        }
        while let Some((&segment, tail)) = rest.split_first() {
            match segment {
                "super" => {
                    at.pop();
                }
                "self" => {}
                _ => {
                    let mut child = at.clone();
                    child.push(segment.to_string());
                    if self.code.contains_key(&child) {
                        at = child;
                    } else if let Some(target) = self.re_export(&at, segment) {
                        return Some(target);
                    } else {
                        return Some(at); // an item defined in `at`
                    }
                }
            }
            rest = tail;
        }
        Some(at)
    }

    /// Where `name`, re-exported by module `at` (`pub use x::name` or `pub(crate) use`), is
    /// defined.
    fn re_export(&self, at: &Module, name: &str) -> Option<Module> {
        for path in use_paths(self.code.get(at)?, true) {
            let segments: Vec<&str> = path.split("::").collect();
            if segments.last() == Some(&name) {
                let mut full = segments.clone();
                if !matches!(full[0], "crate" | "super" | "self") {
                    full.insert(0, "self"); // `pub use child::Name`
                }
                return self.resolve(at, &full[..full.len() - 1]).map(|m| {
                    let mut child = m.clone();
                    child.push(name.to_string());
                    if self.code.contains_key(&child) {
                        child
                    } else {
                        m
                    }
                });
            }
        }
        None
    }

    fn edges(&self) -> BTreeMap<Module, BTreeSet<Module>> {
        let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
        for (module, code) in &self.code {
            let mut paths = use_paths(code, false);
            paths.extend(inline_paths(code));
            for path in paths {
                let segments: Vec<&str> = path.split("::").collect();
                let first = segments[0];
                let segments: Vec<&str> = if matches!(first, "crate" | "super" | "self") {
                    segments
                } else {
                    // `use child::x`: a path relative to this module.
                    let mut relative = vec!["self"];
                    relative.extend(segments);
                    relative
                };
                if let Some(target) = self.resolve(module, &segments)
                    && &target != module
                {
                    edges.entry(module.clone()).or_default().insert(target);
                }
            }
        }
        edges
    }
}

fn module_of(root: &Path, file: &Path) -> Module {
    let relative: PathBuf = file.strip_prefix(root).unwrap().with_extension("");
    let mut parts: Module = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The code before the module's `#[cfg(test)]` items, without comments.
fn without_tests_and_comments(text: &str) -> String {
    let mut out = String::new();
    let mut skip_test_item = false;
    let mut depth = 0i32;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("//") {
            continue;
        }
        if trimmed.starts_with("#[cfg(test)]") {
            skip_test_item = true;
            depth = 0;
            continue;
        }
        if skip_test_item {
            depth += line.matches('{').count() as i32 - line.matches('}').count() as i32;
            if depth <= 0 && (line.contains('}') || line.trim_end().ends_with(';')) {
                skip_test_item = false;
            }
            continue;
        }
        let code = line.split(" //").next().unwrap_or(line);
        out.push_str(code);
        out.push('\n');
    }
    out
}

/// The paths of the `use` declarations in `code` (only the public ones with `public`), with
/// their brace groups expanded.
fn use_paths(code: &str, public: bool) -> Vec<String> {
    let mut paths = Vec::new();
    let mut rest = code;
    while let Some(at) = find_use(rest) {
        let (is_public, start) = at;
        let tail = &rest[start..];
        let end = tail.find(';').unwrap_or(tail.len());
        if is_public || !public {
            expand("", tail[..end].trim(), &mut paths);
        }
        rest = &tail[end..];
    }
    paths
}

/// The next `use` declaration: whether it is public and where its tree starts.
fn find_use(code: &str) -> Option<(bool, usize)> {
    let mut from = 0;
    loop {
        let at = from + code[from..].find("use ")?;
        let line_start = code[..at].rfind('\n').map_or(0, |n| n + 1);
        let before = code[line_start..at].trim();
        if before.is_empty() || before.starts_with("pub") {
            return Some((before.starts_with("pub"), at + 4));
        }
        from = at + 4;
    }
}

/// Expands a use tree (`a::{b, c::{d, e}}`) under `prefix` into full paths.
fn expand(prefix: &str, tree: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    let join = |p: &str, s: &str| {
        if p.is_empty() {
            s.to_string()
        } else {
            format!("{p}::{s}")
        }
    };
    if let Some(open) = tree.find('{') {
        let head = tree[..open].trim_end_matches("::");
        let inner = &tree[open + 1..tree.rfind('}').unwrap()];
        let mut depth = 0;
        let mut start = 0;
        let bytes = inner.as_bytes();
        for i in 0..=bytes.len() {
            let c = bytes.get(i).copied();
            match c {
                Some(b'{') => depth += 1,
                Some(b'}') => depth -= 1,
                Some(b',') | None if depth == 0 => {
                    let part = inner[start..i].trim();
                    if !part.is_empty() {
                        expand(&join(prefix, head), part, out);
                    }
                    start = i + 1;
                }
                _ => {}
            }
        }
    } else {
        let path = tree.split(" as ").next().unwrap().trim();
        if path == "self" {
            out.push(prefix.to_string());
        } else if !path.is_empty() && path != "*" {
            out.push(join(prefix, path.trim_end_matches("::*")));
        }
    }
}

/// Paths written in code (`super::rows::copy_rows(`, `crate::relayout::tuning::ROWS`), not
/// macros.
fn inline_paths(code: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let bytes = code.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    for start in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(found) = code[from..].find(start) {
            let at = from + found;
            from = at + start.len();
            if at > 0 && (word(bytes[at - 1]) || bytes[at - 1] == b':') {
                continue;
            }
            let mut end = at;
            while end < bytes.len() && (word(bytes[end]) || bytes[end] == b':') {
                end += 1;
            }
            let path = code[at..end].trim_end_matches(':');
            if bytes.get(end) == Some(&b'!') || code[..at].trim_end().ends_with("use") {
                continue;
            }
            paths.push(path.to_string());
        }
    }
    paths
}

/// The circles in `edges`: every group of modules that reach one another (Tarjan's strongly
/// connected components of more than one module), each as a path around it.
fn find_cycles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<Module, usize>,
        low: BTreeMap<Module, usize>,
        stack: Vec<Module>,
        groups: Vec<Vec<Module>>,
    }
    impl Walk<'_> {
        fn visit(&mut self, node: &Module) {
            let n = self.index.len();
            self.index.insert(node.clone(), n);
            self.low.insert(node.clone(), n);
            self.stack.push(node.clone());
            for next in self.edges.get(node).into_iter().flatten() {
                if !self.index.contains_key(next) {
                    self.visit(next);
                    let low = self.low[node].min(self.low[next]);
                    self.low.insert(node.clone(), low);
                } else if self.stack.contains(next) {
                    let low = self.low[node].min(self.index[next]);
                    self.low.insert(node.clone(), low);
                }
            }
            if self.low[node] == self.index[node] {
                let from = self.stack.iter().position(|m| m == node).unwrap();
                let group: Vec<Module> = self.stack.drain(from..).collect();
                if group.len() > 1 {
                    self.groups.push(group);
                }
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        groups: Vec::new(),
    };
    for node in edges.keys() {
        if !walk.index.contains_key(node) {
            walk.visit(node);
        }
    }
    walk.groups
}

fn name(module: &Module) -> String {
    if module.is_empty() {
        "crate".into()
    } else {
        module.join("::")
    }
}

#[test]
fn no_module_imports_in_a_circle() {
    let source = Source::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let edges = source.edges();
    let cycles = find_cycles(&edges);
    let described: Vec<String> = cycles
        .iter()
        .map(|group| {
            let names: Vec<String> = group.iter().map(name).collect();
            format!("  {{{}}}", names.join(", "))
        })
        .collect();
    assert!(
        cycles.is_empty(),
        "modules that import one another in a circle:\n{}",
        described.join("\n")
    );
}

/// The reader's check of the reader: the graph of a small crate with a known circle finds it,
/// through a re-export, and one without finds none.
#[test]
fn a_circle_through_a_re_export_is_found() {
    let mut code = BTreeMap::new();
    let module = |p: &str| -> Module {
        if p.is_empty() {
            Vec::new()
        } else {
            p.split("::").map(String::from).collect()
        }
    };
    code.insert(
        module(""),
        "mod a;\nmod b;\npub use b::Thing;\n".to_string(),
    );
    code.insert(
        module("a"),
        "use crate::Thing;\npub fn f() {}\n".to_string(),
    );
    code.insert(
        module("b"),
        "pub struct Thing;\nfn g() { super::a::f() }\n".to_string(),
    );
    let source = Source { code };
    let edges = source.edges();
    assert_eq!(edges[&module("a")], BTreeSet::from([module("b")]));
    assert_eq!(find_cycles(&edges).len(), 1);
    let mut acyclic = source.code.clone();
    acyclic.insert(module("b"), "pub struct Thing;\n".to_string());
    assert!(find_cycles(&Source { code: acyclic }.edges()).is_empty());
}
