//! What changed between two versions of a JSON Schema, each change classified for the callers
//! of a tool. Each change first says what it does to the values the schema allows: it narrows
//! them (a new required property, a narrowed type, a removed enum value, a bound added or
//! tightened, a pattern or format added), widens them (a property made optional, a widened type,
//! an added enum value, a bound loosened or removed), or is the same for callers whichever way
//! values flow (a property removed breaks, an annotation such as a description does not).
//!
//! The [`Direction`] decides what narrowing and widening mean. A schema of what callers send (a
//! tool's input) breaks them when it narrows: a call that was accepted may now be refused. A
//! schema of what callers receive (a tool's output) breaks them when it widens: a result may now
//! hold what the old schema promised it never would. Values are compared as JSON values, never as
//! text, so the order of keys never counts as a change. Local `$ref`s are followed.

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::value_set::ValueIndex;

mod branches;
mod disjoint;

/// Schemas nested deeper than this are compared whole: a change below is reported as one
/// breaking change, since it cannot be classified (and a recursive `$ref` must end somewhere).
pub const MAX_DEPTH: usize = 64;

/// How many times a node may be compared with an option of an `anyOf`/`oneOf` one side holds
/// (a trial), for one such list met outside any trial: the options nested in its options share
/// them. Options nested in options multiply the work; past this the list is reported as not
/// classified. Lists side by side each have their own: they add up, never multiply.
const MAX_TRIALS: usize = 256;

/// How much work the trials of one diff may do in all, in steps: a node walked in a trial is one,
/// a trial begun [`TRIAL_STEPS`] (what merging an option and comparing it cost besides). What
/// bounds a schema of many lists, each spending its trials (or walking a large definition).
const MAX_TRIAL_STEPS: usize = 1 << 20;

/// The steps one trial costs, besides the nodes it walks.
const TRIAL_STEPS: usize = 64;

/// A member a caller that thins schemas (see `snapshot_text`) adds beside an `enum` it cut to its
/// first [`MAX_LISTED`] removed (old side) or added (new side) values: how many more there were.
/// A control character in its name keeps it apart from any keyword a schema's text can hold
/// there (schemas with `\u` escapes are never thinned).
pub const ENUM_NOT_LISTED: &str = "\u{1}enum values not listed";

/// The keywords of `true` (an empty schema), for comparing it with an object schema.
static EMPTY: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Impact {
    Breaking,
    Compatible,
}

impl Impact {
    pub fn label(self) -> &'static str {
        match self {
            Impact::Breaking => "breaking",
            Impact::Compatible => "compatible",
        }
    }
}

/// What the compared schema describes: what callers send, or what they receive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// A request (a tool's input schema): a change that refuses a value accepted before breaks callers.
    Request,
    /// A response (a tool's output schema): a change that allows a value refused before breaks
    /// callers, and so does a property removed (a caller that read it no longer finds it).
    Response,
}

/// What one change does to the values a schema allows, before the direction reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Effect {
    /// Refuses values allowed before, allows none refused before.
    Narrows,
    /// Allows values refused before, refuses none allowed before.
    Widens,
    /// Both refuses values allowed before and allows values refused before (a type replaced).
    Both,
    /// The same impact whichever way values flow.
    Fixed(Impact),
}

impl Effect {
    fn impact(self, direction: Direction) -> Impact {
        match (self, direction) {
            (Effect::Fixed(impact), _) => impact,
            (Effect::Both, _) | (Effect::Narrows, Direction::Request) | (Effect::Widens, Direction::Response) => {
                Impact::Breaking
            }
            _ => Impact::Compatible,
        }
    }
}

const BREAKS: Effect = Effect::Fixed(Impact::Breaking);
const HARMLESS: Effect = Effect::Fixed(Impact::Compatible);

/// One change: where (a JSON pointer into the schema), how it affects callers, and what it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub path: String,
    pub impact: Impact,
    pub what: String,
}

/// A JSON-pointer token: `~` and `/` escaped.
pub fn token(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

/// Every change from `old` to `new`, paths starting with `base` (e.g. `/inputSchema`), classified
/// for callers that send (`Request`) or receive (`Response`) what the schema describes.
pub fn diff(old: &Value, new: &Value, base: &str, direction: Direction) -> Vec<Change> {
    // Definitions count only through a `$ref`: without one, equal subtrees are never walked
    // (`snapshot_text` holds the property schemas alike on both sides as `null`, relying on it).
    let defs_differ = defs(old) != defs(new) && (has_ref(old) || has_ref(new));
    let mut walk = Walk {
        old_root: old,
        new_root: new,
        defs_differ,
        direction,
        trials: MAX_TRIALS,
        steps: MAX_TRIAL_STEPS,
        in_trial: false,
        exhausted: false,
        refs_compared: Default::default(),
        out: vec![],
    };
    walk.node(old, new, base, 0);
    walk.out
}

/// Whether any object in `root` holds a `$ref`, found without recursion.
fn has_ref(root: &Value) -> bool {
    let mut stack = vec![root];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) if m.contains_key("$ref") => return true,
            Value::Object(m) => stack.extend(m.values()),
            Value::Array(a) => stack.extend(a),
            _ => {}
        }
    }
    false
}

fn defs(root: &Value) -> (Option<&Value>, Option<&Value>) {
    (root.get("$defs"), root.get("definitions"))
}

/// Keywords that only describe: a change to one never refuses a value.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "examples",
    "default",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$schema",
    "$id",
    "$anchor",
    "$defs",
    "definitions",
];

/// Lower bounds: raising or adding one narrows (refuses values the old schema took).
const LOWER: &[&str] = &["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"];
const UPPER: &[&str] = &["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"];

/// Keywords that restrict values in ways not compared finer: adding one narrows, removing one
/// widens, changing one may do both.
const RESTRICTIONS: &[&str] = &[
    "pattern",
    "format",
    "multipleOf",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "contains",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "prefixItems",
    "patternProperties",
    "additionalItems",
    "contentMediaType",
    "contentEncoding",
];

/// The keywords walked by their own rules.
const STRUCTURE: &[&str] =
    &["type", "enum", "const", "required", "properties", "additionalProperties", "items", "anyOf", "oneOf", "allOf"];

struct Walk<'a> {
    old_root: &'a Value,
    new_root: &'a Value,
    defs_differ: bool,
    direction: Direction,
    /// Trial comparisons left for the list being classified (see [`MAX_TRIALS`]).
    trials: usize,
    /// Steps the trials of this diff may still take (see [`MAX_TRIAL_STEPS`]).
    steps: usize,
    /// Whether this walk is a trial: its changes are weighed, not reported as they come.
    in_trial: bool,
    /// Whether a bound ran out: the trials' changes are then not to be trusted.
    exhausted: bool,
    /// The pairs of `$ref` targets compared so far: each pair is compared once, where it is first
    /// met. Definitions that refer to one lower level twice (a diamond) would otherwise be walked
    /// 2^levels times: a 3 KB snapshot of 18 such levels took 66 s.
    refs_compared: std::collections::HashSet<(usize, usize)>,
    out: Vec<Change>,
}

impl<'a> Walk<'a> {
    fn push(&mut self, path: &str, effect: Effect, what: impl Into<String>) {
        let impact = effect.impact(self.direction);
        self.out.push(Change { path: path.to_string(), impact, what: what.into() });
    }

    /// `node` with a local `$ref` followed (one step; a chain is followed level by level).
    fn follow(root: &'a Value, node: &'a Value) -> &'a Value {
        match node.get("$ref").and_then(Value::as_str) {
            Some(r) => super::resolve::resolve(root, r).unwrap_or(node),
            None => node,
        }
    }

    fn node(&mut self, old: &'a Value, new: &'a Value, path: &str, depth: usize) {
        // Equal subtrees hold no change, unless a `$ref` in them points into definitions that changed.
        if old == new && !self.defs_differ {
            return;
        }
        if self.in_trial {
            if self.steps == 0 || self.exhausted {
                self.exhausted = true;
                return;
            }
            self.steps -= 1;
        }
        if depth > MAX_DEPTH {
            if old != new {
                self.push(path, BREAKS, "changed too deep to classify");
            }
            return;
        }
        // Keywords beside a `$ref` apply with its target (2019-09 on): both sides' are compared
        // too, as written (the `$ref` itself is skipped there).
        if has_ref_siblings(old, new) {
            crate::deep::grow(|| self.schemas(old, new, path, depth));
        }
        let (old_target, new_target) = (Self::follow(self.old_root, old), Self::follow(self.new_root, new));
        let followed = !std::ptr::eq(old, old_target) || !std::ptr::eq(new, new_target);
        let pair = (old_target as *const Value as usize, new_target as *const Value as usize);
        if followed && !self.refs_compared.insert(pair) {
            return;
        }
        crate::deep::grow(|| self.schemas(old_target, new_target, path, depth));
    }

    fn schemas(&mut self, old: &'a Value, new: &'a Value, path: &str, depth: usize) {
        match (accepts_all(old), accepts_nothing(old), accepts_all(new), accepts_nothing(new)) {
            (_, true, _, true) | (true, _, true, _) => return,
            (_, _, _, true) => return self.push(path, Effect::Narrows, "now refuses every value (false)"),
            (_, true, _, _) => return self.push(path, Effect::Widens, "accepted no value before (false)"),
            _ => {}
        }
        let (o, n) = match (old, new) {
            (Value::Object(o), Value::Object(n)) => (o, n),
            (Value::Bool(true), Value::Object(n)) => (&*EMPTY, n),
            (Value::Object(o), Value::Bool(true)) => (o, &*EMPTY),
            _ => return self.push(path, BREAKS, "not a schema mcplens can compare"),
        };
        if self.options_on_one_side((old, new), (o, n), path, depth) {
            return;
        }
        self.types(o, n, path);
        self.enums(o, n, path);
        let gone = Gone::of(o, n);
        self.bounds(o, n, path, &gone);
        self.keywords(o, n, path, &gone);
        if !gone.holds("object") {
            self.required(o, n, path);
            self.properties(o, n, path, depth);
            let (a, b) = (o.get("additionalProperties"), n.get("additionalProperties"));
            self.sub(a, b, &format!("{path}/additionalProperties"), depth);
        }
        if !gone.holds("array") {
            let (a, b) = (o.get("items"), n.get("items"));
            if !a.is_some_and(Value::is_array) && !b.is_some_and(Value::is_array) {
                self.sub(a, b, &format!("{path}/items"), depth);
            } else if a != b {
                self.changed(a, b, &format!("{path}/items"));
            }
        }
        match switched(o, n) {
            Some(keys) => self.list_switched(o, n, keys, path, depth),
            None => {
                for key in ["anyOf", "oneOf"] {
                    self.options(o.get(key), n.get(key), &format!("{path}/{key}"), key, depth);
                }
            }
        }
        self.options(o.get("allOf"), n.get("allOf"), &format!("{path}/allOf"), "allOf", depth);
    }

    /// A node with an `anyOf` or `oneOf` accepts what one of its options, together with the
    /// node's other keywords, accepts. When only one side has such a list, each of its options so
    /// completed is compared with the other side. A request gaining options (a string becoming "a
    /// string or an object"), or a response losing them, breaks nothing when the options cover
    /// the other side: one option alone (the nearest option's changes are reported), or, type by
    /// type, one option for each JSON type the other side allows (`type: ["number", "null"]` is
    /// `anyOf: [{type: number}, {type: null}]`). A request losing options, or a response gaining
    /// them, breaks callers when any option does: the option that breaks most is reported.
    /// Changes the option brings go under its path, those of the node's own keywords under theirs.
    /// Options that equal the other side's branches settle it with no trial (see
    /// [`Walk::same_branches`]); the others are compared by trial, within [`MAX_TRIALS`] and
    /// [`MAX_TRIAL_STEPS`]: past them, the list is reported as not classified, in one line.
    /// False when the rule does not apply and the node is to be walked keyword by keyword.
    fn options_on_one_side(
        &mut self,
        sides: (&Value, &Value),
        maps: (&Map<String, Value>, &Map<String, Value>),
        path: &str,
        depth: usize,
    ) -> bool {
        let has = |m: &Map<String, Value>| m.contains_key("anyOf") || m.contains_key("oneOf");
        let gained = match (has(maps.0), has(maps.1)) {
            (false, true) => true,
            (true, false) => false,
            _ => return false,
        };
        let holder = if gained { maps.1 } else { maps.0 };
        let (key, options) = match (holder.get("anyOf"), holder.get("oneOf")) {
            (Some(Value::Array(a)), None) => ("anyOf", a),
            (None, Some(Value::Array(a))) => ("oneOf", a),
            _ => return false,
        };
        if options.is_empty() {
            return false;
        }
        // A trial whose bounds ran out is thrown away whole: spend no more on it.
        if self.in_trial && self.exhausted {
            return true;
        }
        let list = OneSided { holder, key, options, gained };
        let (other, other_map) = if gained { (sides.0, maps.0) } else { (sides.1, maps.1) };
        let outermost = !self.in_trial;
        if outermost {
            self.trials = MAX_TRIALS;
            self.exhausted = false;
        }
        let mark = self.out.len();
        let classified =
            self.same_branches(&list, other, path, depth) || self.by_trial(&list, other, other_map, path, depth);
        if outermost && self.exhausted {
            self.exhausted = false;
            self.out.truncate(mark);
            let verb = if gained { "added" } else { "removed" };
            let what = format!("{key} {verb}: not classified (too many options within its options to compare)");
            self.push(&format!("{path}/{key}"), BREAKS, what);
            return true;
        }
        classified
    }

    /// [`Walk::options_on_one_side`] by trial: each option compared with the other side, then,
    /// where one option must take every value, the types one by one. True when it is settled, or
    /// when a bound ran out (`exhausted`).
    fn by_trial(
        &mut self,
        list: &OneSided,
        other: &Value,
        other_map: &Map<String, Value>,
        path: &str,
        depth: usize,
    ) -> bool {
        if !self.charge(list.options.len()) {
            return true;
        }
        let (gained, key, options) = (list.gained, list.key, list.options);
        let one_enough = gained == (self.direction == Direction::Request);
        let rank = |c: &[Change]| {
            let breaking = c.iter().filter(|c| c.impact == Impact::Breaking).count();
            (if one_enough { breaking } else { usize::MAX - breaking }, c.len())
        };
        let mut chosen: Option<(usize, Vec<Change>)> = None;
        for i in 0..options.len() {
            let Some(changes) = self.against_option(list, i, other, path, depth) else {
                // When every option counts, one that cannot be merged leaves the answer open.
                if !one_enough {
                    return false;
                }
                continue;
            };
            if chosen.as_ref().is_none_or(|(_, best)| rank(&changes) < rank(best)) {
                chosen = Some((i, changes));
            }
        }
        let Some((i, changes)) = chosen else { return false };
        let breaks = changes.iter().any(|c| c.impact == Impact::Breaking);
        if one_enough
            && breaks
            && let Some((covering, changes)) = self.each_type_covered(list, other_map, path, depth)
        {
            let what = match gained {
                true => format!("{key} added: its options together take every value taken before ({covering})"),
                false => format!("{key} removed: its options together took every value taken now ({covering})"),
            };
            self.push(&format!("{path}/{key}"), HARMLESS, what);
            self.out.extend(changes);
            return true;
        }
        let what = match (gained, one_enough, breaks) {
            (true, true, true) => format!("{key} added: no option takes every value taken before (nearest: {i})"),
            (true, true, false) => format!("{key} added: option {i} takes every value taken before"),
            (true, false, true) => format!("{key} added: option {i} takes values not taken before"),
            (true, false, false) => format!("{key} added: every option takes only values taken before"),
            (false, true, true) => format!("{key} removed: no option took every value taken now (nearest: {i})"),
            (false, true, false) => format!("{key} removed: option {i} took every value taken now"),
            (false, false, true) => format!("{key} removed: values option {i} took are not all taken now"),
            (false, false, false) => format!("{key} removed: every value an option took is taken now"),
        };
        let impact = if breaks { Impact::Breaking } else { Impact::Compatible };
        self.push(&format!("{path}/{key}"), Effect::Fixed(impact), what);
        self.out.extend(changes);
        true
    }

    /// The changes between `other` (the side without the list) and option `i` of `list`
    /// completed with the node's other keywords, in the order old to new; None when the option
    /// cannot be merged with them. A change the option brings is shown at its place in it.
    fn against_option(
        &mut self,
        list: &OneSided,
        i: usize,
        other: &Value,
        path: &str,
        depth: usize,
    ) -> Option<Vec<Change>> {
        let option = &list.options[i];
        let completed = complete(list.holder, list.key, option)?;
        let mut changes = if list.gained {
            self.trial(other, &completed, path, depth)
        } else {
            self.trial(&completed, other, path, depth)
        };
        crate::deep::drop_value(completed);
        place(&mut changes, list, i, path);
        Some(changes)
    }

    /// The rule of [`Walk::options_on_one_side`] settled by equality, with no trial: each branch
    /// of the other side (one for each type it allows, see [`branches`]) equal to a branch of an
    /// option (`type: ["number", "null"]` becoming `anyOf: [{"type": "number"}, {"type":
    /// "null"}]`); or, where every option counts, each branch of each option equal to one of the
    /// other side's. The pairs found are compared for what else changed (annotations). False when
    /// equality does not settle it.
    fn same_branches(&mut self, list: &OneSided, other: &Value, path: &str, depth: usize) -> bool {
        let one_enough = list.gained == (self.direction == Direction::Request);
        let (other_root, list_root) =
            if list.gained { (self.old_root, self.new_root) } else { (self.new_root, self.old_root) };
        // `$ref`s written alike may point at definitions that are not.
        if self.defs_differ && (has_ref(other) || list.holder.values().any(has_ref)) {
            return false;
        }
        let Some(theirs) = branches::split(other, other_root) else { return false };
        let Some((owners, mine)) = option_branches(list, list_root, one_enough) else { return false };
        let pairs: Vec<(usize, &branches::Branch, &branches::Branch)> = if one_enough {
            let Some(at) = branches::positions(&theirs, &mine).into_iter().collect::<Option<Vec<_>>>() else {
                return false;
            };
            theirs.iter().zip(at).map(|(t, j)| (owners[j], t, &mine[j])).collect()
        } else {
            let Some(at) = branches::positions(&mine, &theirs).into_iter().collect::<Option<Vec<_>>>() else {
                return false;
            };
            mine.iter().zip(at).enumerate().map(|(k, (m, j))| (owners[k], &theirs[j], m)).collect()
        };
        if pairs.is_empty() {
            return false;
        }
        let mut changes: Vec<Change> = vec![];
        for (i, their, my) in &pairs {
            let mut found = match list.gained {
                true => self.trial(&their.schema, &my.schema, path, depth),
                false => self.trial(&my.schema, &their.schema, path, depth),
            };
            place(&mut found, list, *i, path);
            for c in found {
                if !changes.iter().any(|a| a.path == c.path && a.what == c.what) {
                    changes.push(c);
                }
            }
        }
        let key = list.key;
        let alone = pairs.iter().all(|p| p.0 == pairs[0].0).then_some(pairs[0].0);
        let covering: Vec<String> =
            pairs.iter().map(|(i, their, _)| format!("{}: option {i}", their.kind().unwrap_or("any type"))).collect();
        let covering = covering.join(", ");
        let what = match (list.gained, one_enough, alone) {
            (true, true, Some(i)) => format!("{key} added: option {i} takes every value taken before"),
            (true, true, None) => {
                format!("{key} added: its options together take every value taken before ({covering})")
            }
            (false, true, Some(i)) => format!("{key} removed: option {i} took every value taken now"),
            (false, true, None) => {
                format!("{key} removed: its options together took every value taken now ({covering})")
            }
            (true, false, _) => format!("{key} added: every option takes only values taken before"),
            (false, false, _) => format!("{key} removed: every value an option took is taken now"),
        };
        let breaks = changes.iter().any(|c| c.impact == Impact::Breaking);
        let impact = if breaks { Impact::Breaking } else { Impact::Compatible };
        self.push(&format!("{path}/{key}"), Effect::Fixed(impact), what);
        self.out.extend(changes);
        true
    }

    /// Spends `n` trials; false (and `exhausted` set) when fewer are left, or too few steps.
    fn charge(&mut self, n: usize) -> bool {
        let steps = n.saturating_mul(TRIAL_STEPS);
        if n > self.trials || steps > self.steps {
            self.exhausted = true;
            return false;
        }
        self.trials -= n;
        self.steps -= steps;
        true
    }

    /// Whether the options of `list` cover the other side type by type: for each JSON type it
    /// allows, the values of that type are taken by one option, found with no breaking change. Then
    /// which option covers which type (`number: option 0, null: option 1`) and the changes found,
    /// each once. None when a type is not covered, or the trial budget would run out.
    fn each_type_covered(
        &mut self,
        list: &OneSided,
        other: &Map<String, Value>,
        path: &str,
        depth: usize,
    ) -> Option<(String, Vec<Change>)> {
        let allowed = types(other.get("type"));
        // Integers are numbers: covered with them.
        let kinds: Vec<&str> = ALL_TYPES
            .into_iter()
            .filter(|t| allowed.contains(*t) && !(*t == "integer" && allowed.contains("number")))
            .collect();
        if kinds.len() < 2 {
            return None;
        }
        // Only an option whose type takes every value of a type can cover it.
        let option_takes = |i: usize, t: &str| {
            let written = list.options[i].get("type").or(list.holder.get("type"));
            covers(&types(written), t)
        };
        let candidates: Vec<(&str, Vec<usize>)> =
            kinds.into_iter().map(|t| (t, (0..list.options.len()).filter(|i| option_takes(*i, t)).collect())).collect();
        let cost: usize = candidates.iter().map(|(_, c)| c.len()).sum();
        if candidates.iter().any(|(_, c)| c.is_empty()) || !self.charge(cost) {
            return None;
        }
        let (mut covering, mut all) = (vec![], Vec::<Change>::new());
        for (t, options) in candidates {
            let mut only_t: Map<String, Value> =
                other.iter().map(|(k, v)| (k.clone(), crate::deep::clone_value(v))).collect();
            only_t.insert("type".into(), Value::String(t.into()));
            let only_t = Value::Object(only_t);
            let mut best: Option<(usize, Vec<Change>)> = None;
            for i in options {
                let Some(changes) = self.against_option(list, i, &only_t, path, depth) else { continue };
                let fits = !changes.iter().any(|c| c.impact == Impact::Breaking);
                if fits && best.as_ref().is_none_or(|(_, b)| changes.len() < b.len()) {
                    best = Some((i, changes));
                }
            }
            crate::deep::drop_value(only_t);
            let (i, changes) = best?;
            covering.push(format!("{t}: option {i}"));
            for c in changes {
                if !all.iter().any(|a| a.path == c.path && a.what == c.what) {
                    all.push(c);
                }
            }
        }
        Some((covering.join(", "), all))
    }

    /// The changes from `old` to `new`, found apart from this walk's (sharing its trial budget).
    fn trial(&mut self, old: &Value, new: &Value, path: &str, depth: usize) -> Vec<Change> {
        let mut walk = Walk {
            old_root: self.old_root,
            new_root: self.new_root,
            defs_differ: self.defs_differ,
            direction: self.direction,
            trials: self.trials,
            steps: self.steps,
            in_trial: true,
            exhausted: self.exhausted,
            refs_compared: self.refs_compared.clone(),
            out: vec![],
        };
        walk.node(old, new, path, depth + 1);
        (self.trials, self.steps, self.exhausted) = (walk.trials, walk.steps, walk.exhausted);
        walk.out
    }

    /// A subschema where a missing one accepts everything (`additionalProperties`, `items`).
    fn sub(&mut self, old: Option<&'a Value>, new: Option<&'a Value>, path: &str, depth: usize) {
        const ANY: &Value = &Value::Bool(true);
        if old.is_none() && new.is_none() {
            return;
        }
        self.node(old.unwrap_or(ANY), new.unwrap_or(ANY), path, depth + 1);
    }

    fn types(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, path: &str) {
        let (before, after) = (types(o.get("type")), types(n.get("type")));
        if before == after {
            return;
        }
        let path = format!("{path}/type");
        let lost = before.iter().any(|t| !covers(&after, t));
        let gained = after.iter().any(|t| !covers(&before, t));
        let text = format!("{} -> {}", show_types(o.get("type")), show_types(n.get("type")));
        match (lost, gained) {
            (true, true) => self.push(&path, Effect::Both, format!("type changed: {text}")),
            (true, false) => self.push(&path, Effect::Narrows, format!("type narrowed: {text}")),
            _ => self.push(&path, Effect::Widens, format!("type widened: {text}")),
        }
    }

    fn enums(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, path: &str) {
        // `enum` and `const` both list the values taken: one form become the other is compared
        // as lists of values (`enum: ["a"]` and `const: "a"` are the same).
        let holds = |m: &Map<String, Value>| (m.get("enum").is_some_and(Value::is_array), m.contains_key("const"));
        let (before, after) = (holds(o), holds(n));
        let thinned = o.contains_key(ENUM_NOT_LISTED) || n.contains_key(ENUM_NOT_LISTED);
        if before != after && before != (false, false) && after != (false, false) && !thinned {
            return self.values_rewritten(o, n, path);
        }
        match (o.get("enum").and_then(Value::as_array), n.get("enum").and_then(Value::as_array)) {
            (None, None) => {}
            (Some(_), None) => self.push(&format!("{path}/enum"), Effect::Widens, "enum removed (any value)"),
            (None, Some(_)) => self.push(&format!("{path}/enum"), Effect::Narrows, "enum added (fewer values)"),
            (Some(before), Some(after)) => {
                let (old_set, new_set) = (ValueIndex::new(before), ValueIndex::new(after));
                let removed = before.iter().filter(|v| !new_set.contains(v));
                let added = after.iter().filter(|v| !old_set.contains(v));
                let p = format!("{path}/enum");
                let not_listed = |m: &Map<String, Value>| m.get(ENUM_NOT_LISTED).and_then(Value::as_u64).unwrap_or(0);
                if let Some(list) = listed(removed, not_listed(o)) {
                    self.push(&p, Effect::Narrows, format!("enum value removed: {list}"));
                }
                if let Some(list) = listed(added, not_listed(n)) {
                    self.push(&p, Effect::Widens, format!("enum value added: {list}"));
                }
            }
        }
        match (o.get("const"), n.get("const")) {
            (a, b) if a == b => {}
            (Some(_), None) => self.push(&format!("{path}/const"), Effect::Widens, "const removed"),
            (a, Some(b)) => {
                let was = a.map(compact).unwrap_or_else(|| "(none)".into());
                // One value for another: what was allowed is refused and the other way round.
                let effect = if a.is_some() { Effect::Both } else { Effect::Narrows };
                self.push(&format!("{path}/const"), effect, format!("const {was} -> {}", compact(b)));
            }
            (None, None) => {}
        }
    }

    /// The values `enum` and `const` allow on each side, one side written in a form the other is
    /// not (`enum: ["a", "b"]` become `const: "a"`): the values removed narrow, those added widen,
    /// one value replaced by another does both. Reported at the keyword that holds them now.
    fn values_rewritten(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, path: &str) {
        let (before, after) = (allowed(o), allowed(n));
        let (old_set, new_set) = (ValueIndex::new(before.iter().copied()), ValueIndex::new(after.iter().copied()));
        let removed = listed(before.iter().copied().filter(|v| !new_set.contains(v)), 0);
        let added = listed(after.iter().copied().filter(|v| !old_set.contains(v)), 0);
        let at = format!("{path}/{}", if n.contains_key("const") { "const" } else { "enum" });
        let text = format!("{} -> {}", written_values(o), written_values(n));
        match (removed, added) {
            (None, None) => {}
            (Some(_), Some(_)) if before.len() == 1 && after.len() == 1 => {
                self.push(&at, Effect::Both, format!("value replaced: {text}"))
            }
            (removed, added) => {
                if let Some(list) = removed {
                    self.push(&at, Effect::Narrows, format!("value removed: {list} ({text})"));
                }
                if let Some(list) = added {
                    self.push(&at, Effect::Widens, format!("value added: {list} ({text})"));
                }
            }
        }
    }

    fn bounds(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, path: &str, gone: &Gone) {
        // A bound on integers is compared by the integers it takes (`exclusiveMinimum: 0` is
        // `minimum: 1`): a value a bound change matters for passes the type of both sides.
        let integers = integers_only(o) || integers_only(n);
        for lower in [true, false].into_iter().filter(|_| !gone.holds("number")) {
            self.number_limit(o, n, path, lower, integers);
        }
        for (keys, lower) in [(LOWER, true), (UPPER, false)] {
            for key in keys.iter().filter(|k| !NUMBER_LIMITS.contains(k) && !gone.skips(k)) {
                let (a, b) = (o.get(*key), n.get(*key));
                if same_value(a, b) {
                    continue;
                }
                let effect = match (a.and_then(Value::as_f64), b.and_then(Value::as_f64)) {
                    (_, None) if b.is_none() => Effect::Widens,
                    (None, _) if a.is_none() => Effect::Narrows,
                    (Some(x), Some(y)) if (lower && y <= x) || (!lower && y >= x) => Effect::Widens,
                    (Some(_), Some(_)) => Effect::Narrows,
                    // Values no validator compares: which way is unknown.
                    _ => Effect::Both,
                };
                let verb = match effect {
                    Effect::Narrows if a.is_none() => "bound added",
                    Effect::Narrows => "bound tightened",
                    Effect::Widens if b.is_none() => "bound removed",
                    Effect::Widens => "bound loosened",
                    _ => "bound changed",
                };
                self.push(&format!("{path}/{key}"), effect, format!("{verb}: {} -> {}", show(a), show(b)));
            }
        }
        let (a, b) =
            (o.get("uniqueItems") == Some(&Value::Bool(true)), n.get("uniqueItems") == Some(&Value::Bool(true)));
        if a != b && !gone.holds("array") {
            let (effect, what) = if b {
                (Effect::Narrows, "items must now be unique")
            } else {
                (Effect::Widens, "items need no longer be unique")
            };
            self.push(&format!("{path}/uniqueItems"), effect, what);
        }
    }

    /// The bound on numbers from below (`lower`) or above, compared as the one bound that
    /// `minimum` and `exclusiveMinimum` (or their `max` twins) make together: `exclusiveMinimum: 0`
    /// becoming `minimum: 0` takes 0 now, one bound loosened, where keyword by keyword it would be
    /// one bound added and one removed. Reported once, at the keyword that now holds the bound.
    fn number_limit(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, path: &str, lower: bool, ints: bool) {
        let keys = if lower { ["minimum", "exclusiveMinimum"] } else { ["maximum", "exclusiveMaximum"] };
        let differs = |k: &&str| !same_value(o.get(*k), n.get(*k));
        let Some(first_differing) = keys.into_iter().find(differs) else { return };
        let (before, after) = (Limit::of(o, keys), Limit::of(n, keys));
        let (effect, verb) = match (before, after) {
            (Ok(None), Ok(None)) => (HARMLESS, "no bound either way"),
            (Ok(None), Ok(Some(_))) => (Effect::Narrows, "bound added"),
            (Ok(Some(_)), Ok(None)) => (Effect::Widens, "bound removed"),
            (Ok(Some(a)), Ok(Some(b))) => {
                let order = |a: Limit, b: Limit| a.reach(lower).partial_cmp(&b.reach(lower));
                let on_numbers = order(a, b);
                let order = if ints { order(a.on_integers(lower), b.on_integers(lower)) } else { on_numbers };
                match order {
                    Some(std::cmp::Ordering::Less) => (Effect::Narrows, "bound tightened"),
                    Some(std::cmp::Ordering::Greater) => (Effect::Widens, "bound loosened"),
                    _ if on_numbers == order => (HARMLESS, "same bound written another way"),
                    _ => (HARMLESS, "same bound on integers"),
                }
            }
            // A bound no validator compares (a string): which way is unknown.
            _ => (Effect::Both, "bound changed"),
        };
        // Where the bound is held now; where it was, when it is gone; else the keyword changed
        // (draft 4's `exclusiveMinimum: true` turned on or off beside an unchanged `minimum`).
        let holder = |side: Result<Option<Limit>, ()>| side.ok().flatten().map(|l| l.key).filter(differs);
        let at = holder(after).or(holder(before)).unwrap_or(first_differing);
        let written: Vec<&str> = keys.into_iter().filter(|k| o.contains_key(*k) || n.contains_key(*k)).collect();
        let text = match written[..] {
            [k] => format!("{} -> {}", show(o.get(k)), show(n.get(k))),
            _ => format!("{} -> {}", show_limit(o, keys), show_limit(n, keys)),
        };
        self.push(&format!("{path}/{at}"), effect, format!("{verb}: {text}"));
    }

    /// Restrictions compared whole, annotations, and keywords mcplens does not know.
    fn keywords(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, path: &str, gone: &Gone) {
        let keys: Vec<&String> = o.keys().chain(n.keys().filter(|k| !o.contains_key(*k))).collect();
        for key in keys {
            let k = key.as_str();
            let skipped = k == "uniqueItems" || k == "$ref" || k == ENUM_NOT_LISTED || gone.skips(k);
            if STRUCTURE.contains(&k) || LOWER.contains(&k) || UPPER.contains(&k) || skipped {
                continue;
            }
            let (a, b) = (o.get(k), n.get(k));
            if a == b {
                continue;
            }
            let p = format!("{path}/{}", token(k));
            if ANNOTATIONS.contains(&k) {
                if k != "$defs" && k != "definitions" {
                    self.push(&p, HARMLESS, format!("{} (annotation)", verb(a, b)));
                }
            } else if RESTRICTIONS.contains(&k) {
                self.restriction(k, a, b, &p);
            } else {
                // An unknown keyword constrains nothing a validator checks.
                self.push(&p, HARMLESS, format!("{} (not a validation keyword)", verb(a, b)));
            }
        }
    }

    /// A restricting keyword compared whole. One that refuses nothing stands for none: one added
    /// where there was none narrows, one removed widens, and one replaced by another may do both.
    fn restriction(&mut self, k: &str, a: Option<&Value>, b: Option<&Value>, p: &str) {
        let real = |v: Option<&Value>| v.is_some_and(|v| !restricts_nothing(k, v));
        let effect = match (real(a), real(b)) {
            (false, false) => HARMLESS,
            (false, true) => Effect::Narrows,
            (true, false) => Effect::Widens,
            (true, true) => Effect::Both,
        };
        match b {
            // Written by generators for the shape alone (zod 4 gives every record
            // `propertyNames: {"type": "string"}`): whatever it replaced, nothing is refused now.
            Some(b) if restricts_nothing(k, b) => {
                self.push(p, effect, format!("{}: {} (refuses nothing)", verb(a, Some(b)), short(b)))
            }
            Some(_) => self.push(p, effect, format!("{}: {} -> {}", verb(a, b), show(a), show(b))),
            None => self.push(p, effect, format!("removed: {}", show(a))),
        }
    }

    fn required(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, path: &str) {
        let (before, after) = (names(o.get("required")), names(n.get("required")));
        let props = n.get("properties").and_then(Value::as_object);
        let old_props = o.get("properties").and_then(Value::as_object);
        for name in after.difference(&before) {
            // A property that is new is reported (once) with the properties.
            let is_new =
                props.is_some_and(|p| p.contains_key(*name)) && !old_props.is_some_and(|p| p.contains_key(*name));
            if !is_new {
                self.push(
                    &format!("{path}/required/{}", token(name)),
                    Effect::Narrows,
                    format!("{name} is now required"),
                );
            }
        }
        for name in before.difference(&after) {
            let removed =
                old_props.is_some_and(|p| p.contains_key(*name)) && !props.is_some_and(|p| p.contains_key(*name));
            if !removed {
                self.push(
                    &format!("{path}/required/{}", token(name)),
                    Effect::Widens,
                    format!("{name} is now optional"),
                );
            }
        }
    }

    fn properties(&mut self, o: &'a Map<String, Value>, n: &'a Map<String, Value>, path: &str, depth: usize) {
        let before = o.get("properties").and_then(Value::as_object).unwrap_or(&EMPTY);
        let after = n.get("properties").and_then(Value::as_object).unwrap_or(&EMPTY);
        let required = names(n.get("required"));
        // Whatever the direction, a property gone (or now refused whatever its value) is lost to
        // a caller that read it.
        for (name, old) in before {
            let p = format!("{path}/properties/{}", token(name));
            match after.get(name) {
                Some(new) if accepts_nothing(new) && !accepts_nothing(old) => {
                    self.push(&p, BREAKS, "now refuses every value (false)")
                }
                Some(new) => self.node(old, new, &p, depth + 1),
                None => self.push(&p, BREAKS, "property removed"),
            }
        }
        // A new property narrows what its key may hold; in an object that took no other key
        // before, it also lets through a key that was refused.
        let closed = o.get("additionalProperties").is_some_and(accepts_nothing);
        // Said where it is what breaks callers: a response that may hold a key refused before.
        let response = self.direction == Direction::Response;
        let note = if closed && response { " (additionalProperties was false)" } else { "" };
        for name in after.keys().filter(|k| !before.contains_key(*k)) {
            let p = format!("{path}/properties/{}", token(name));
            match (required.contains(name.as_str()), closed) {
                (true, true) => self.push(&p, Effect::Both, format!("new required property{note}")),
                (true, false) => self.push(&p, Effect::Narrows, "new required property"),
                (false, true) => self.push(&p, Effect::Widens, format!("new optional property{note}")),
                (false, false) => self.push(&p, HARMLESS, "new optional property"),
            }
        }
    }

    /// `anyOf`/`oneOf` (an option removed narrows, one added widens) or `allOf` (the other way
    /// round). An option that is only a list of the same keyword stands for its members
    /// (`anyOf: [{anyOf: [a, b]}, c]` is `anyOf: [a, b, c]`), so a list flattened is no change.
    /// Options of an `anyOf`/`oneOf` rewritten without changing the values they take are paired
    /// first (see [`Walk::regrouped`]). When as many options went as came, they were edited in
    /// place: each is compared with the one in its place among the changed (a `maxLength` edited
    /// in an option is no option removed); otherwise a changed option counts as one removed and
    /// one added.
    fn options(&mut self, old: Option<&'a Value>, new: Option<&'a Value>, path: &str, key: &str, depth: usize) {
        self.option_lists(old, new, (path, path), (key, key), depth);
    }

    /// [`Walk::options`] for lists under keys (and so paths) that may differ on the two sides:
    /// an `anyOf` become a `oneOf`.
    fn option_lists(
        &mut self,
        old: Option<&'a Value>,
        new: Option<&'a Value>,
        paths: (&str, &str),
        keys: (&str, &str),
        depth: usize,
    ) {
        let (before, after) = (members(old, keys.0), members(new, keys.1));
        // An option written the same on both sides may still change through a `$ref` into
        // definitions that did (`anyOf: [{"$ref": "#/$defs/a"}]` with `a` narrowed).
        let old_index = ValueIndex::new(before.iter().map(|(_, v)| *v));
        let new_index = ValueIndex::new(after.iter().map(|(_, v)| *v));
        if self.defs_differ {
            for (_, v) in &before {
                if let Some((at, w)) = new_index.position(v).map(|j| &after[j]) {
                    self.node(v, w, &format!("{}{at}", paths.1), depth + 1);
                }
            }
        }
        if old == new {
            return;
        }
        let mut went: Vec<usize> = (0..before.len()).filter(|i| !new_index.contains(before[*i].1)).collect();
        let mut came: Vec<usize> = (0..after.len()).filter(|j| !old_index.contains(after[*j].1)).collect();
        let both = old.is_some() && new.is_some();
        if both && keys.0 != "allOf" {
            self.regrouped((&before, &after), (&mut went, &mut came), paths, depth);
        }
        if both && went.len() == came.len() {
            for (i, j) in went.into_iter().zip(came) {
                self.node(before[i].1, after[j].1, &format!("{}{}", paths.1, after[j].0), depth + 1);
            }
            return;
        }
        let (lost, gained) =
            if keys.0 == "allOf" { (Effect::Widens, Effect::Narrows) } else { (Effect::Narrows, Effect::Widens) };
        // A whole list added where there was none restricts (it holds beside the node's other
        // keywords); removing it loosens.
        let (lost, gained) = match (old.is_some(), new.is_some()) {
            (false, true) => (lost, Effect::Narrows),
            (true, false) => (Effect::Widens, gained),
            _ => (lost, gained),
        };
        for i in went {
            let (at, v) = &before[i];
            self.push(&format!("{}{at}", paths.0), lost, format!("option removed: {}", short(v)));
        }
        for j in came {
            let (at, v) = &after[j];
            self.push(&format!("{}{at}", paths.1), gained, format!("option added: {}", short(v)));
        }
    }

    /// Options of an `anyOf`/`oneOf` on both sides, rewritten without changing what they take,
    /// found by equality of their branches (see [`branches`]) and taken out of `went` and `came`.
    /// An option gone whose branches are those of one come (a description edited, `enum: ["a"]`
    /// become `const: "a"`, a type list become a list of options) is compared with it. Then an
    /// option gone each of whose branches an option now holds takes nothing away, and an option
    /// come each of whose branches one held adds nothing: options merged or split (`{type:
    /// string}` and `{type: integer}` become `{type: [string, integer]}`). Those are said in one
    /// compatible line.
    fn regrouped(
        &mut self,
        (before, after): (&[Member<'a>], &[Member<'a>]),
        (went, came): (&mut Vec<usize>, &mut Vec<usize>),
        paths: (&str, &str),
        depth: usize,
    ) {
        let refers = |list: &[Member], at: &[usize]| at.iter().any(|i| has_ref(list[*i].1));
        // `$ref`s written alike may point at definitions that are not.
        if went.is_empty() || came.is_empty() || (self.defs_differ && (refers(before, went) || refers(after, came))) {
            return;
        }
        let split = |list: &[Member], at: &[usize], root: &Value| -> Vec<Option<Vec<branches::Branch>>> {
            at.iter().map(|i| branches::split(list[*i].1, root)).collect()
        };
        let (old_b, new_b) = (split(before, went, self.old_root), split(after, came, self.new_root));
        // One option for one: the same branches.
        let mut by_key: std::collections::HashMap<Vec<u64>, Vec<usize>> = Default::default();
        for (k, b) in new_b.iter().enumerate() {
            if let Some(b) = b {
                by_key.entry(branches::key(b)).or_default().push(k);
            }
        }
        let (mut old_done, mut new_done) = (vec![false; went.len()], vec![false; came.len()]);
        for (k, b) in old_b.iter().enumerate() {
            let Some(b) = b else { continue };
            let same = |c: &&usize| !new_done[**c] && new_b[**c].as_ref().is_some_and(|n| branches::same(b, n));
            if let Some(&c) = by_key.get(&branches::key(b)).and_then(|cs| cs.iter().find(same)) {
                (old_done[k], new_done[c]) = (true, true);
                let (i, j) = (went[k], came[c]);
                self.node(before[i].1, after[j].1, &format!("{}{}", paths.1, after[j].0), depth + 1);
            }
        }
        // Options merged or split: each branch of an option held by some option on the other side.
        fn held<'b>(bs: &'b [Option<Vec<branches::Branch>>], done: &[bool]) -> Vec<&'b branches::Branch> {
            bs.iter().zip(done).filter(|(_, d)| !**d).filter_map(|(b, _)| b.as_ref()).flatten().collect()
        }
        let covered =
            |bs: &[Option<Vec<branches::Branch>>], done: &[bool], other: &[&branches::Branch]| -> Vec<usize> {
                let index = ValueIndex::new(other.iter().map(|b| &b.bare));
                let all_in = |b: &Vec<branches::Branch>| b.iter().all(|x| index.contains(&x.bare));
                (0..bs.len()).filter(|k| !done[*k] && bs[*k].as_ref().is_some_and(all_in)).collect()
            };
        let (old_held, new_held) = (held(&old_b, &old_done), held(&new_b, &new_done));
        let (gone, come) = (covered(&old_b, &old_done, &new_held), covered(&new_b, &new_done, &old_held));
        let branches_of = |bs: &[Option<Vec<branches::Branch>>], at: &[usize]| -> Vec<Value> {
            at.iter().filter_map(|k| bs[*k].as_ref()).flatten().map(|b| b.bare.clone()).collect()
        };
        let (gone_b, come_b) = (branches_of(&old_b, &gone), branches_of(&new_b, &come));
        let mutual = ValueIndex::new(&gone_b);
        let mutual = gone_b.len() == come_b.len() && come_b.iter().all(|b| mutual.contains(b));
        let named = |list: &[Member], idx: &[usize], at: &[usize]| -> String {
            let names: Vec<&str> = at.iter().map(|k| list[idx[*k]].0.trim_start_matches('/')).collect();
            format!("{} {}", if names.len() == 1 { "option" } else { "options" }, names.join(", "))
        };
        let (was, now) = (named(before, went, &gone), named(after, came, &come));
        match (gone.is_empty(), come.is_empty()) {
            (true, true) => {}
            (false, false) if mutual => {
                self.push(paths.1, HARMLESS, format!("{was} regrouped as {now}: the same values"));
            }
            (g, c) => {
                if !g {
                    self.push(paths.0, HARMLESS, format!("{was} removed: each value taken is still taken by another"));
                }
                if !c {
                    self.push(paths.1, HARMLESS, format!("{now} added: takes only values taken before"));
                }
            }
        }
        for (list, mut done, gone) in [(&mut *went, old_done, gone), (&mut *came, new_done, come)] {
            gone.into_iter().for_each(|k| done[k] = true);
            let mut k = 0;
            list.retain(|_| {
                k += 1;
                !done[k - 1]
            });
        }
        gone_b.into_iter().chain(come_b).for_each(crate::deep::drop_value);
    }

    /// An `anyOf` become a `oneOf`, or the other way round: the options compared as one list's,
    /// and what the keyword itself changes: a `oneOf` refuses a value two of its options take, so
    /// the change narrows (or widens) unless no two options can take one value (see
    /// [`disjoint`]).
    fn list_switched(
        &mut self,
        o: &'a Map<String, Value>,
        n: &'a Map<String, Value>,
        (from, to): (&'static str, &'static str),
        path: &str,
        depth: usize,
    ) {
        let (old_path, new_path) = (format!("{path}/{from}"), format!("{path}/{to}"));
        self.option_lists(o.get(from), n.get(to), (&old_path, &new_path), (from, to), depth);
        let (holder, root) = if to == "oneOf" { (n, self.new_root) } else { (o, self.old_root) };
        let options = members(holder.get("oneOf"), "oneOf");
        let checked = if options.len() > disjoint::MAX_CHECKED { &[][..] } else { &options[..] };
        let completed: Vec<Value> = checked
            .iter()
            .map(|(_, v)| complete(holder, "oneOf", v).unwrap_or_else(|| crate::deep::clone_value(v)))
            .collect();
        let overlap = match checked.len() == options.len() {
            true => disjoint::overlapping(&completed.iter().collect::<Vec<_>>(), root),
            false => Some((0, 1)),
        };
        completed.into_iter().for_each(crate::deep::drop_value);
        let value = |(i, j): (usize, usize)| {
            if checked.len() < options.len() {
                format!(
                    "a value two of its {} options take (not looked for past {})",
                    options.len(),
                    disjoint::MAX_CHECKED
                )
            } else {
                let at = |k: usize| options[k].0.trim_start_matches('/').to_string();
                format!("a value options {} and {} may both take", at(i), at(j))
            }
        };
        let (effect, what) = match (to == "oneOf", overlap) {
            (true, None) => (HARMLESS, "anyOf became oneOf: no two options take one value, the same values".into()),
            (true, Some(p)) => (Effect::Narrows, format!("anyOf became oneOf: {} is refused now", value(p))),
            (false, None) => (HARMLESS, "oneOf became anyOf: no two options took one value, the same values".into()),
            (false, Some(p)) => {
                (Effect::Widens, format!("oneOf became anyOf: {}, refused before, is taken now", value(p)))
            }
        };
        self.push(&new_path, effect, what);
    }

    fn changed(&mut self, old: Option<&Value>, new: Option<&Value>, path: &str) {
        self.push(path, BREAKS, format!("changed: {} -> {}", show(old), show(new)));
    }
}

/// The values `const` and `enum` allow together (what `const` holds, when the `enum` lists it).
fn allowed(m: &Map<String, Value>) -> Vec<&Value> {
    let listed = m.get("enum").and_then(Value::as_array);
    match (m.get("const"), listed) {
        (Some(c), Some(a)) => a.iter().filter(|v| *v == c).collect(),
        (Some(c), None) => vec![c],
        (None, Some(a)) => a.iter().collect(),
        (None, None) => vec![],
    }
}

/// A side's `const` and `enum`, as written (long ones cut): `const "a"`, `enum ["a","b"]`.
fn written_values(m: &Map<String, Value>) -> String {
    let held: Vec<String> =
        ["const", "enum"].iter().filter_map(|k| m.get(*k).map(|v| format!("{k} {}", short(v)))).collect();
    held.join(", ")
}

/// The keywords of an `anyOf` become a `oneOf` (or the other way round), each side holding one
/// of the two only.
fn switched(o: &Map<String, Value>, n: &Map<String, Value>) -> Option<(&'static str, &'static str)> {
    let only =
        |m: &Map<String, Value>, k: &str, not: &str| m.get(k).is_some_and(Value::is_array) && !m.contains_key(not);
    if only(o, "anyOf", "oneOf") && only(n, "oneOf", "anyOf") {
        Some(("anyOf", "oneOf"))
    } else if only(o, "oneOf", "anyOf") && only(n, "anyOf", "oneOf") {
        Some(("oneOf", "anyOf"))
    } else {
        None
    }
}

/// An `anyOf` or `oneOf` list a node holds on one side of a change only.
struct OneSided<'h> {
    /// The node that holds it.
    holder: &'h Map<String, Value>,
    key: &'static str,
    options: &'h [Value],
    /// Whether the new side holds it.
    gained: bool,
}

/// Changes found comparing option `i` of `list` that concern a keyword the option sets, moved
/// under the option's path.
fn place(changes: &mut [Change], list: &OneSided, i: usize, path: &str) {
    for c in changes {
        let rel = &c.path[path.len()..];
        if from_option(&list.options[i], rel) {
            c.path = format!("{path}/{}/{i}{rel}", list.key);
        }
    }
}

/// The branches of the options of `list`, each completed with the node's other keywords, and
/// the option each came from. None when one cannot be merged or split, or, for a `oneOf` whose
/// options must each take whole branches (`exclusive`), when two of them may take one value: a
/// `oneOf` refuses it.
fn option_branches(list: &OneSided, root: &Value, exclusive: bool) -> Option<(Vec<usize>, Vec<branches::Branch>)> {
    // Each option has a branch or none: more would be more branches than are compared.
    if list.options.len() > branches::MAX_BRANCHES {
        return None;
    }
    let completed: Vec<Value> = list.options.iter().map_while(|o| complete(list.holder, list.key, o)).collect();
    let mut result = (completed.len() == list.options.len()).then(|| (vec![], vec![]));
    if exclusive && list.key == "oneOf" && disjoint::overlapping(&completed.iter().collect::<Vec<_>>(), root).is_some()
    {
        result = None;
    }
    for (i, c) in completed.iter().enumerate() {
        let Some((owners, mine)) = result.as_mut() else { break };
        match branches::split(c, root) {
            Some(split) if mine.len() + split.len() <= branches::MAX_BRANCHES => {
                owners.extend(std::iter::repeat_n(i, split.len()));
                mine.extend(split);
            }
            _ => result = None,
        }
    }
    completed.into_iter().for_each(crate::deep::drop_value);
    result
}

/// The node `n` with its `key` (`anyOf`/`oneOf`) replaced by the keywords of one option: what a
/// value matching that option must satisfy. None when the two say different things about one
/// keyword (other than properties and required, which add up) and cannot be merged simply.
fn complete(n: &Map<String, Value>, key: &str, option: &Value) -> Option<Value> {
    let option = match option {
        Value::Object(o) => o,
        Value::Bool(true) => &*EMPTY,
        _ => return None,
    };
    let mut out: Map<String, Value> =
        n.iter().filter(|(k, _)| *k != key).map(|(k, v)| (k.clone(), crate::deep::clone_value(v))).collect();
    let mut clash = false;
    for (k, v) in option {
        match (k.as_str(), out.get_mut(k)) {
            (_, None) => {
                out.insert(k.clone(), crate::deep::clone_value(v));
            }
            (_, Some(mine)) if mine == v => {}
            ("properties", Some(Value::Object(mine))) if v.is_object() => {
                for (name, schema) in v.as_object().into_iter().flatten() {
                    match mine.get(name) {
                        None => {
                            mine.insert(name.clone(), crate::deep::clone_value(schema));
                        }
                        Some(s) if s == schema => {}
                        Some(_) => clash = true,
                    }
                }
            }
            ("required", Some(Value::Array(mine))) if v.is_array() => {
                for name in v.as_array().into_iter().flatten() {
                    if !mine.contains(name) {
                        mine.push(name.clone());
                    }
                }
            }
            _ if ANNOTATIONS.contains(&k.as_str()) => {}
            _ => clash = true,
        }
    }
    let merged = Value::Object(out);
    if clash {
        crate::deep::drop_value(merged);
        return None;
    }
    Some(merged)
}

/// Whether the change at `rel` (a pointer below a node) concerns a keyword that `option` sets:
/// for `properties` and `required`, the property named next.
fn from_option(option: &Value, rel: &str) -> bool {
    let mut tokens = rel.split('/').skip(1).map(|t| t.replace("~1", "/").replace("~0", "~"));
    let Some(keyword) = tokens.next() else { return false };
    let Some(set) = option.get(&keyword) else { return false };
    match (keyword.as_str(), tokens.next()) {
        ("properties", Some(name)) => set.get(&name).is_some(),
        ("required", Some(name)) => set.as_array().is_some_and(|a| a.iter().any(|v| v.as_str() == Some(&name))),
        _ => true,
    }
}

fn accepts_all(v: &Value) -> bool {
    v == &Value::Bool(true) || v.as_object().is_some_and(Map::is_empty)
}

/// Whether both nodes hold a `$ref` and one holds other keywords beside it.
fn has_ref_siblings(old: &Value, new: &Value) -> bool {
    let refs = |v: &Value| v.as_object().filter(|m| m.contains_key("$ref")).map(Map::len);
    matches!((refs(old), refs(new)), (Some(a), Some(b)) if a > 1 || b > 1)
}

/// An option of a list as [`members`] gives it: its pointer below the list, and the option.
type Member<'v> = (String, &'v Value);

/// How many levels of lists nested in lists of the same keyword [`members`] opens.
const MAX_FLATTEN: usize = 8;

/// The options of a `key` list (`anyOf`, `oneOf`, `allOf`), each with its pointer below the list:
/// an option holding nothing but a `key` list of its own is replaced by its members, down to
/// [`MAX_FLATTEN`] levels.
fn members<'v>(list: Option<&'v Value>, key: &str) -> Vec<Member<'v>> {
    let mut out = vec![];
    // (pointer of the list, the list, index of its next member, level); a stack keeps the
    // members in document order without recursion.
    let mut stack: Vec<(String, &'v [Value], usize, usize)> = vec![];
    if let Some(Value::Array(a)) = list {
        stack.push((String::new(), a, 0, 0));
    }
    while let Some((at, items, next, level)) = stack.pop() {
        let Some(item) = items.get(next) else { continue };
        let here = format!("{at}/{next}");
        stack.push((at, items, next + 1, level));
        match nested_list(item, key) {
            Some(inner) if level < MAX_FLATTEN => stack.push((format!("{here}/{key}"), inner, 0, level + 1)),
            _ => out.push((here, item)),
        }
    }
    out
}

/// The `key` list of an option that holds nothing else (an annotation beside it would be lost).
fn nested_list<'v>(option: &'v Value, key: &str) -> Option<&'v [Value]> {
    let o = option.as_object()?;
    match o.get(key) {
        Some(Value::Array(a)) if o.len() == 1 && !a.is_empty() => Some(a),
        _ => None,
    }
}

/// Whether a restricting keyword's value refuses no instance: a schema every value it is applied
/// to passes (`propertyNames` only ever sees strings), or a map of such schemas or of empty lists.
fn restricts_nothing(key: &str, v: &Value) -> bool {
    let every_value = |m: &Map<String, Value>, each: &dyn Fn(&Value) -> bool| m.values().all(each);
    match key {
        "propertyNames" => passes_every(v, Some("string")),
        "additionalItems" | "unevaluatedProperties" | "unevaluatedItems" => passes_every(v, None),
        "patternProperties" | "dependentSchemas" => {
            v.as_object().is_some_and(|m| every_value(m, &|s| passes_every(s, None)))
        }
        "dependentRequired" => {
            v.as_object().is_some_and(|m| every_value(m, &|r| r.as_array().is_some_and(Vec::is_empty)))
        }
        "dependencies" => v
            .as_object()
            .is_some_and(|m| every_value(m, &|d| d.as_array().map_or_else(|| passes_every(d, None), Vec::is_empty))),
        _ => false,
    }
}

/// Whether schema `v` takes every value (every value of JSON type `of_type`, when given): `true`,
/// or keywords that are annotations only, besides a `type` allowing `of_type`.
fn passes_every(v: &Value, of_type: Option<&str>) -> bool {
    match v {
        Value::Bool(b) => *b,
        Value::Object(m) => m.iter().all(|(k, t)| {
            ANNOTATIONS.contains(&k.as_str()) || (k == "type" && of_type.is_some_and(|of| covers(&types(Some(t)), of)))
        }),
        _ => false,
    }
}

/// The JSON types one side of a change allows and the other does not. A keyword that applies
/// only to values of such a type (`items` to arrays) constrains nothing that the type change
/// does not already say: every such value is refused on one side whatever the keyword holds.
struct Gone(Vec<&'static str>);

impl Gone {
    fn of(o: &Map<String, Value>, n: &Map<String, Value>) -> Gone {
        let (a, b) = (types(o.get("type")), types(n.get("type")));
        let allows = |set: &HashSet<String>, t: &str| set.contains(t) || (t == "number" && set.contains("integer"));
        Gone(["array", "object", "string", "number"].into_iter().filter(|t| !allows(&a, t) || !allows(&b, t)).collect())
    }

    /// Whether `t` (`array`, `object`, `string` or `number`: integers too) is one of them.
    fn holds(&self, t: &str) -> bool {
        self.0.contains(&t)
    }

    /// Whether `key` applies only to values of a type that is gone.
    fn skips(&self, key: &str) -> bool {
        only_for(key).is_some_and(|t| self.holds(t))
    }
}

/// The one JSON type whose values `key` constrains, for the keywords that other values pass
/// whatever they hold (`format` is left out: a custom format may check numbers).
fn only_for(key: &str) -> Option<&'static str> {
    Some(match key {
        "items" | "prefixItems" | "additionalItems" | "unevaluatedItems" | "contains" | "minContains"
        | "maxContains" | "minItems" | "maxItems" | "uniqueItems" => "array",
        "properties"
        | "required"
        | "additionalProperties"
        | "patternProperties"
        | "propertyNames"
        | "unevaluatedProperties"
        | "dependentRequired"
        | "dependentSchemas"
        | "dependencies"
        | "minProperties"
        | "maxProperties" => "object",
        "minLength" | "maxLength" | "pattern" | "contentMediaType" | "contentEncoding" => "string",
        "minimum" | "exclusiveMinimum" | "maximum" | "exclusiveMaximum" | "multipleOf" => "number",
        _ => return None,
    })
}

/// The keywords that bound numbers, compared as one bound a side (see [`Limit`]).
const NUMBER_LIMITS: &[&str] = &["minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"];

/// One side's bound on numbers from below or above.
#[derive(Debug, Clone, Copy)]
struct Limit {
    at: f64,
    /// Whether `at` itself is refused.
    exclusive: bool,
    /// The keyword that holds it.
    key: &'static str,
}

impl Limit {
    /// The bound `keys` (`minimum` and `exclusiveMinimum`, or their `max` twins) put on numbers:
    /// the inclusive keyword, made exclusive by draft 4's `exclusiveMinimum: true` beside it, or
    /// a number in the exclusive one; the tighter when both are written. Err when one holds what
    /// no validator compares (a string).
    fn of(m: &Map<String, Value>, keys: [&'static str; 2]) -> Result<Option<Limit>, ()> {
        let [inclusive, exclusive] = keys;
        let lower = inclusive == "minimum";
        let flag = m.get(exclusive) == Some(&Value::Bool(true));
        let mut found = vec![];
        if let Some(v) = m.get(inclusive) {
            found.push(Limit { at: v.as_f64().ok_or(())?, exclusive: flag, key: inclusive });
        }
        match m.get(exclusive) {
            None | Some(Value::Bool(_)) => {}
            Some(v) => found.push(Limit { at: v.as_f64().ok_or(())?, exclusive: true, key: exclusive }),
        }
        Ok(found.into_iter().reduce(|a, b| if b.reach(lower) > a.reach(lower) { b } else { a }))
    }

    /// How far in the bound reaches: the greater, the fewer values it takes.
    fn reach(self, lower: bool) -> (f64, bool) {
        (if lower { self.at } else { -self.at }, self.exclusive)
    }

    /// The same bound on integers, inclusive: `exclusiveMinimum: 0` or `minimum: 0.5` is `minimum: 1`.
    fn on_integers(self, lower: bool) -> Limit {
        let at = match (lower, self.exclusive) {
            (true, true) => self.at.floor() + 1.0,
            (true, false) => self.at.ceil(),
            (false, true) => self.at.ceil() - 1.0,
            (false, false) => self.at.floor(),
        };
        Limit { at, exclusive: false, ..self }
    }
}

/// Whether the only numbers `m`'s `type` allows are integers.
fn integers_only(m: &Map<String, Value>) -> bool {
    let t = types(m.get("type"));
    t.contains("integer") && !t.contains("number")
}

/// The bound keywords of `keys` a side holds, named: `minimum 0, exclusiveMinimum true`.
fn show_limit(m: &Map<String, Value>, keys: [&str; 2]) -> String {
    let held: Vec<String> = keys.iter().filter_map(|k| m.get(*k).map(|v| format!("{k} {}", short(v)))).collect();
    if held.is_empty() { "(none)".into() } else { held.join(", ") }
}

/// Two keyword values alike, `10` and `10.0` counting as one.
fn same_value(a: Option<&Value>, b: Option<&Value>) -> bool {
    a == b || matches!((a.and_then(Value::as_f64), b.and_then(Value::as_f64)), (Some(x), Some(y)) if x == y)
}

fn accepts_nothing(v: &Value) -> bool {
    v == &Value::Bool(false)
}

/// The JSON types, as `type` names them.
const ALL_TYPES: [&str; 7] = ["null", "boolean", "object", "array", "number", "string", "integer"];

/// The JSON types a `type` keyword allows; every type when it is missing.
fn types(t: Option<&Value>) -> HashSet<String> {
    match t {
        Some(Value::String(s)) => HashSet::from([s.clone()]),
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).map(str::to_string).collect(),
        _ => ALL_TYPES.iter().map(|s| s.to_string()).collect(),
    }
}

/// Whether a `type` allowing `set` allows every value of type `t` (a number covers integers).
fn covers(set: &HashSet<String>, t: &str) -> bool {
    set.contains(t) || (t == "integer" && set.contains("number"))
}

fn show_types(t: Option<&Value>) -> String {
    t.map(compact).unwrap_or_else(|| "(any)".into())
}

fn names(v: Option<&Value>) -> HashSet<&str> {
    v.and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default()
}

fn verb(a: Option<&Value>, b: Option<&Value>) -> &'static str {
    match (a, b) {
        (None, _) => "added",
        (_, None) => "removed",
        _ => "changed",
    }
}

fn compact(v: &Value) -> String {
    super::tree::compact(v)
}

/// How many values one change names; the rest are counted (a server may send a million).
pub const MAX_LISTED: usize = 50;

/// `values` in one line, at most [`MAX_LISTED`] of them and a count of the rest (`not_listed`
/// more than those given); None when empty.
fn listed<'v>(values: impl Iterator<Item = &'v Value>, not_listed: u64) -> Option<String> {
    let mut shown = Vec::new();
    let mut more = not_listed;
    for v in values {
        if shown.len() < MAX_LISTED {
            shown.push(compact(v));
        } else {
            more += 1;
        }
    }
    match (shown.is_empty(), more) {
        (true, _) => None,
        (false, 0) => Some(shown.join(", ")),
        (false, n) => Some(format!("{} and {n} more", shown.join(", "))),
    }
}

fn show(v: Option<&Value>) -> String {
    v.map(short).unwrap_or_else(|| "(none)".into())
}

/// A value in one short line (long ones cut).
fn short(v: &Value) -> String {
    let s = compact(v);
    if s.chars().count() > 60 { format!("{}…", s.chars().take(59).collect::<String>()) } else { s }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn changes(old: Value, new: Value) -> Vec<(String, Impact)> {
        diff(&old, &new, "", Direction::Request).into_iter().map(|c| (c.path, c.impact)).collect()
    }

    fn one(old: Value, new: Value) -> (String, Impact) {
        let c = changes(old, new);
        assert_eq!(c.len(), 1, "{c:?}");
        c[0].clone()
    }

    /// The changes from `old` to `new` as an output schema (what callers receive).
    fn out_changes(old: Value, new: Value) -> Vec<(String, Impact)> {
        diff(&old, &new, "", Direction::Response).into_iter().map(|c| (c.path, c.impact)).collect()
    }

    fn out_one(old: Value, new: Value) -> (String, Impact) {
        let c = out_changes(old, new);
        assert_eq!(c.len(), 1, "{c:?}");
        c[0].clone()
    }

    fn obj(props: Value, required: &[&str]) -> Value {
        json!({"type": "object", "properties": props, "required": required})
    }

    use Impact::{Breaking, Compatible};

    #[test]
    fn reordered_keys_are_no_change() {
        let a: Value = serde_json::from_str(
            r#"{"type":"object","properties":{"a":{"type":"string","minLength":1},"b":{"enum":[1,2]}},"required":["a"]}"#,
        )
        .unwrap();
        let b: Value = serde_json::from_str(
            r#"{"required":["a"],"properties":{"b":{"enum":[1,2]},"a":{"minLength":1,"type":"string"}},"type":"object"}"#,
        )
        .unwrap();
        assert!(changes(a, b).is_empty());
    }

    #[test]
    fn properties_added_and_removed() {
        let base = obj(json!({"a": {"type": "string"}}), &["a"]);
        let c = one(base.clone(), obj(json!({"a": {"type": "string"}, "b": {"type": "string"}}), &["a", "b"]));
        assert_eq!(c, ("/properties/b".into(), Breaking));
        let c = one(base.clone(), obj(json!({"a": {"type": "string"}, "b": {"type": "string"}}), &["a"]));
        assert_eq!(c, ("/properties/b".into(), Compatible));
        let c = one(obj(json!({"a": {}, "b": {}}), &[]), obj(json!({"a": {}}), &[]));
        assert_eq!(c, ("/properties/b".into(), Breaking));
    }

    #[test]
    fn required_added_and_dropped() {
        let props = json!({"a": {"type": "string"}});
        assert_eq!(one(obj(props.clone(), &[]), obj(props.clone(), &["a"])), ("/required/a".into(), Breaking));
        assert_eq!(one(obj(props.clone(), &["a"]), obj(props, &[])), ("/required/a".into(), Compatible));
    }

    #[test]
    fn types_narrowed_and_widened() {
        let t = |t: Value| json!({ "type": t });
        assert_eq!(one(t(json!("number")), t(json!("integer"))), ("/type".into(), Breaking));
        assert_eq!(one(t(json!("integer")), t(json!("number"))), ("/type".into(), Compatible));
        assert_eq!(one(t(json!(["string", "null"])), t(json!("string"))), ("/type".into(), Breaking));
        assert_eq!(one(t(json!("string")), t(json!(["string", "null"]))), ("/type".into(), Compatible));
        assert_eq!(one(t(json!("string")), t(json!("integer"))), ("/type".into(), Breaking));
        assert_eq!(one(json!({}), t(json!("string"))), ("/type".into(), Breaking));
        assert_eq!(one(t(json!("string")), json!({})), ("/type".into(), Compatible));
    }

    #[test]
    fn enum_values_removed_and_added() {
        let e = |v: Value| json!({ "enum": v });
        assert_eq!(one(e(json!(["a", "b"])), e(json!(["a"]))), ("/enum".into(), Breaking));
        assert_eq!(one(e(json!(["a"])), e(json!(["b", "a"]))), ("/enum".into(), Compatible));
        assert!(changes(e(json!(["a", "b"])), e(json!(["b", "a"]))).is_empty(), "order of enum values");
        assert_eq!(one(json!({}), e(json!(["a"]))), ("/enum".into(), Breaking));
        assert_eq!(one(e(json!(["a"])), json!({})), ("/enum".into(), Compatible));
        assert_eq!(one(json!({}), json!({"const": 1})), ("/const".into(), Breaking));
        assert_eq!(one(json!({"const": 1}), json!({})), ("/const".into(), Compatible));
    }

    #[test]
    fn enum_and_const_are_one_list_of_values() {
        let (e, k) = (|v: Value| json!({ "enum": v }), |v: Value| json!({ "const": v }));
        // One value written either way: no change, whichever way, beside other keywords too.
        assert!(changes(e(json!(["a"])), k(json!("a"))).is_empty());
        assert!(out_changes(k(json!(3)), e(json!([3]))).is_empty());
        let typed = |m: Value| json!({"type": "object", "properties": {"mode": m}});
        let (listed, one_value) = (json!({"type": "string", "enum": ["x"]}), json!({"type": "string", "const": "x"}));
        assert!(changes(typed(listed), typed(one_value)).is_empty());
        // Values dropped in the rewriting: one narrowing, where the values are held now.
        let c = diff(&e(json!(["a", "b", "c"])), &k(json!("a")), "", Direction::Request);
        assert_eq!(c.len(), 1, "{c:?}");
        assert_eq!((c[0].path.as_str(), c[0].impact), ("/const", Breaking));
        assert_eq!(c[0].what, r#"value removed: "b", "c" (enum ["a","b","c"] -> const "a")"#);
        assert_eq!(out_one(e(json!(["a", "b"])), k(json!("a"))), ("/const".into(), Compatible));
        assert_eq!(one(k(json!("a")), e(json!(["a", "b"]))), ("/enum".into(), Compatible));
        assert_eq!(out_one(k(json!("a")), e(json!(["a", "b"]))), ("/enum".into(), Breaking));
        // One value for another: breaking both ways, one change.
        assert_eq!(one(e(json!(["a"])), k(json!("b"))), ("/const".into(), Breaking));
        assert_eq!(out_one(k(json!("a")), e(json!(["b"]))), ("/enum".into(), Breaking));
        // A const beside an enum picks its value from it.
        assert!(changes(json!({"const": "a", "enum": ["a", "b"]}), k(json!("a"))).is_empty());
        assert_eq!(one(json!({"const": "a", "enum": ["a", "b"]}), e(json!(["a", "b"]))), ("/enum".into(), Compatible));
    }

    #[test]
    fn every_bound_tightened_and_loosened() {
        for key in ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"] {
            assert_eq!(one(json!({}), json!({ key: 1 })), (format!("/{key}"), Breaking), "{key} added");
            assert_eq!(one(json!({ key: 1 }), json!({ key: 2 })), (format!("/{key}"), Breaking), "{key} raised");
            assert_eq!(one(json!({ key: 2 }), json!({ key: 1 })), (format!("/{key}"), Compatible), "{key} lowered");
            assert_eq!(one(json!({ key: 2 }), json!({})), (format!("/{key}"), Compatible), "{key} removed");
        }
        for key in ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"] {
            assert_eq!(one(json!({}), json!({ key: 9 })), (format!("/{key}"), Breaking), "{key} added");
            assert_eq!(one(json!({ key: 9 }), json!({ key: 5 })), (format!("/{key}"), Breaking), "{key} lowered");
            assert_eq!(one(json!({ key: 5 }), json!({ key: 9 })), (format!("/{key}"), Compatible), "{key} raised");
            assert_eq!(one(json!({ key: 5 }), json!({})), (format!("/{key}"), Compatible), "{key} removed");
        }
        // 10 and 10.0 are one bound.
        assert!(changes(json!({"maximum": 10}), json!({"maximum": 10.0})).is_empty());
        assert_eq!(one(json!({}), json!({"uniqueItems": true})), ("/uniqueItems".into(), Breaking));
    }

    #[test]
    fn minimum_and_exclusive_minimum_make_one_bound() {
        let full = |old: Value, new: Value| -> Vec<(String, Impact, String)> {
            diff(&old, &new, "", Direction::Request).into_iter().map(|c| (c.path, c.impact, c.what)).collect()
        };
        let typed = |t: &str, bound: Value| {
            let mut v = json!({ "type": t });
            if let (Some(m), Value::Object(b)) = (v.as_object_mut(), bound) {
                m.extend(b);
            }
            v
        };
        let num = |bound: Value| typed("number", bound);
        let int = |bound: Value| typed("integer", bound);
        // 0 is taken now: one bound loosened, at the keyword that holds it now, both sides named.
        let c = full(num(json!({"exclusiveMinimum": 0})), num(json!({"minimum": 0})));
        assert_eq!(c, vec![("/minimum".into(), Compatible, "bound loosened: exclusiveMinimum 0 -> minimum 0".into())]);
        assert_eq!(
            out_one(num(json!({"exclusiveMinimum": 0})), num(json!({"minimum": 0}))),
            ("/minimum".into(), Breaking)
        );
        // 0 is refused now.
        assert_eq!(
            one(num(json!({"minimum": 0})), num(json!({"exclusiveMinimum": 0}))),
            ("/exclusiveMinimum".into(), Breaking)
        );
        assert_eq!(
            one(num(json!({"maximum": 9})), num(json!({"exclusiveMaximum": 9}))),
            ("/exclusiveMaximum".into(), Breaking)
        );
        assert_eq!(
            one(num(json!({"exclusiveMaximum": 9})), num(json!({"maximum": 9}))),
            ("/maximum".into(), Compatible)
        );
        // Above 0 becoming from 1 up refuses 0.5; the integers above 0 are the integers from 1 up.
        assert_eq!(one(num(json!({"exclusiveMinimum": 0})), num(json!({"minimum": 1}))), ("/minimum".into(), Breaking));
        let c = full(int(json!({"exclusiveMinimum": 0})), int(json!({"minimum": 1})));
        assert_eq!(
            c,
            vec![("/minimum".into(), Compatible, "same bound on integers: exclusiveMinimum 0 -> minimum 1".into())]
        );
        assert_eq!(
            one(int(json!({"exclusiveMaximum": 10})), int(json!({"maximum": 9.5}))),
            ("/maximum".into(), Compatible)
        );
        assert_eq!(one(int(json!({"exclusiveMinimum": 0})), int(json!({"minimum": 2}))), ("/minimum".into(), Breaking));
        // An integer-only side is enough: a value the bound decides for passes both types.
        assert_eq!(
            changes(int(json!({"exclusiveMinimum": 0})), num(json!({"minimum": 1}))),
            vec![("/type".into(), Compatible), ("/minimum".into(), Compatible)]
        );
        // Draft 4's boolean `exclusiveMinimum` beside `minimum`.
        let draft4 = num(json!({"minimum": 0, "exclusiveMinimum": true}));
        let c = full(draft4.clone(), num(json!({"exclusiveMinimum": 0})));
        let same = "same bound written another way: minimum 0, exclusiveMinimum true -> exclusiveMinimum 0";
        assert_eq!(c, vec![("/exclusiveMinimum".into(), Compatible, same.into())]);
        assert_eq!(one(draft4.clone(), num(json!({"minimum": 0}))), ("/exclusiveMinimum".into(), Compatible));
        assert_eq!(one(num(json!({"minimum": 0})), draft4.clone()), ("/exclusiveMinimum".into(), Breaking));
        assert_eq!(
            one(draft4, num(json!({"minimum": 0, "exclusiveMinimum": false}))),
            ("/exclusiveMinimum".into(), Compatible)
        );
        let c = full(int(json!({"minimum": 0, "exclusiveMinimum": true})), int(json!({"exclusiveMinimum": 0})));
        assert_eq!(c[0].2, "same bound written another way: minimum 0, exclusiveMinimum true -> exclusiveMinimum 0");
        // Both written: the tighter is the bound.
        let both = |x: u32| num(json!({"minimum": 0, "exclusiveMinimum": x}));
        assert_eq!(one(both(5), both(3)), ("/exclusiveMinimum".into(), Compatible));
        assert_eq!(one(both(5), num(json!({"minimum": 0}))), ("/exclusiveMinimum".into(), Compatible));
        assert_eq!(one(num(json!({"minimum": 0})), num(json!({"minimum": 0, "exclusiveMinimum": -5}))).1, Compatible);
        // A bound no validator compares: which way is unknown.
        assert_eq!(one(num(json!({"minimum": 0})), num(json!({"minimum": "1"}))), ("/minimum".into(), Breaking));
        assert!(changes(num(json!({"minimum": -0.0})), num(json!({"minimum": 0}))).is_empty());
    }

    #[test]
    fn keywords_of_a_type_gone_are_said_by_the_type_change() {
        // An array of text blocks became a string: the type change is the one change.
        let item = json!({"type": "object", "properties": {"text": {"type": "string"}}, "additionalProperties": false});
        let blocks = json!({"type": "array", "items": item, "minItems": 1, "uniqueItems": true, "contains": {}});
        assert_eq!(out_changes(blocks.clone(), json!({"type": "string"})), vec![("/type".into(), Breaking)]);
        assert_eq!(changes(json!({"type": "string"}), blocks), vec![("/type".into(), Breaking)]);
        // Keywords of objects, strings and numbers likewise, on whichever side they stand.
        let object = json!({"type": "object", "properties": {"a": {}}, "required": ["a"], "minProperties": 1});
        let int = json!({"type": "integer", "minimum": 0, "multipleOf": 2});
        assert_eq!(changes(object.clone(), int.clone()), vec![("/type".into(), Breaking)]);
        assert_eq!(out_changes(int, object), vec![("/type".into(), Breaking)]);
        let text = json!({"type": "string", "maxLength": 5, "pattern": "^a", "contentEncoding": "base64"});
        assert_eq!(changes(text, json!({"type": "number", "exclusiveMaximum": 5})), vec![("/type".into(), Breaking)]);
        // A type gained: what its keywords say of the new values is the widening itself.
        let c = changes(
            json!({"type": "null"}),
            json!({"type": ["null", "object"], "properties": {"a": {}}, "required": ["a"]}),
        );
        assert_eq!(c, vec![("/type".into(), Compatible)]);
        // A type on both sides (integers are numbers), or no type: its keywords still count.
        let c = changes(json!({"type": ["array", "null"], "minItems": 1}), json!({"type": "array", "minItems": 2}));
        assert_eq!(c, vec![("/type".into(), Breaking), ("/minItems".into(), Breaking)]);
        let c = changes(json!({"type": "number", "maximum": 9}), json!({"type": "integer", "maximum": 5}));
        assert_eq!(c, vec![("/type".into(), Breaking), ("/maximum".into(), Breaking)]);
        let c = changes(json!({"maxLength": 9}), json!({"type": "string", "maxLength": 5}));
        assert_eq!(c, vec![("/type".into(), Breaking), ("/maxLength".into(), Breaking)]);
        assert_eq!(changes(json!({"maxLength": 9}), json!({"maxLength": 5})), vec![("/maxLength".into(), Breaking)]);
        // `format` is not taken for a string keyword: a custom format may check numbers.
        let c = changes(json!({"type": "integer"}), json!({"type": ["integer", "string"], "format": "int64"}));
        assert_eq!(c, vec![("/type".into(), Compatible), ("/format".into(), Breaking)]);
    }

    #[test]
    fn pattern_and_format() {
        assert_eq!(one(json!({}), json!({"pattern": "^a"})), ("/pattern".into(), Breaking));
        assert_eq!(one(json!({"pattern": "^a"}), json!({"pattern": "^b"})), ("/pattern".into(), Breaking));
        assert_eq!(one(json!({"pattern": "^a"}), json!({})), ("/pattern".into(), Compatible));
        assert_eq!(one(json!({}), json!({"format": "email"})), ("/format".into(), Breaking));
    }

    #[test]
    fn annotations_are_compatible() {
        let c =
            changes(json!({"description": "a", "title": "t"}), json!({"description": "b", "examples": [1], "x-ui": 1}));
        assert!(c.iter().all(|(_, i)| *i == Compatible), "{c:?}");
        assert_eq!(c.len(), 4, "{c:?}");
    }

    #[test]
    fn nested_items_and_additional_properties() {
        let arr = |s: Value| json!({"type": "array", "items": s});
        let c = one(arr(json!({"type": "string"})), arr(json!({"type": "string", "maxLength": 3})));
        assert_eq!(c, ("/items/maxLength".into(), Breaking));
        let c = one(
            obj(json!({"o": obj(json!({"x": {"type": "number"}}), &[])}), &[]),
            obj(json!({"o": obj(json!({"x": {"type": "integer"}}), &[])}), &[]),
        );
        assert_eq!(c, ("/properties/o/properties/x/type".into(), Breaking));
        assert_eq!(one(json!({}), json!({"additionalProperties": false})), ("/additionalProperties".into(), Breaking));
        assert_eq!(
            one(json!({"additionalProperties": false}), json!({})),
            ("/additionalProperties".into(), Compatible)
        );
        assert_eq!(one(json!({"properties": {"a/b": {}}}), json!({})), ("/properties/a~1b".into(), Breaking));
    }

    #[test]
    fn options_of_any_of_and_all_of() {
        let any = |v: Value| json!({ "anyOf": v });
        let (s, i) = (json!({"type": "string"}), json!({"type": "integer"}));
        assert_eq!(one(any(json!([s, i])), any(json!([s]))), ("/anyOf/1".into(), Breaking));
        assert_eq!(one(any(json!([s])), any(json!([s, i]))), ("/anyOf/1".into(), Compatible));
        assert_eq!(one(json!({"allOf": [s]}), json!({"allOf": [s, i]})), ("/allOf/1".into(), Breaking));
    }

    #[test]
    fn refs_are_followed() {
        let with = |max: u32| json!({"properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"maxLength": max}}});
        assert_eq!(one(with(9), with(5)), ("/properties/a/maxLength".into(), Breaking));
        assert_eq!(one(with(5), with(9)), ("/properties/a/maxLength".into(), Compatible));
        // A schema that refers to itself ends at the depth limit.
        let rec = |t: &str| json!({"type": t, "properties": {"next": {"$ref": "#"}}});
        let c = changes(rec("object"), rec("string"));
        assert!(c.iter().any(|(_, i)| *i == Breaking));
    }

    #[test]
    fn keywords_beside_a_ref_are_compared_too() {
        let defs = json!({"a": {"type": "object"}});
        let root = |extra: Value| {
            let mut v = json!({"$ref": "#/$defs/a", "$defs": defs});
            if let (Some(m), Value::Object(e)) = (v.as_object_mut(), extra) {
                m.extend(e);
            }
            v
        };
        assert_eq!(changes(root(json!({})), root(json!({"required": ["x"]}))), vec![("/required/x".into(), Breaking)]);
        let prop = |max: u32| json!({"properties": {"p": {"$ref": "#/$defs/s", "maxLength": max}}, "$defs": {"s": {"type": "string"}}});
        assert_eq!(changes(prop(9), prop(5)), vec![("/properties/p/maxLength".into(), Breaking)]);
        // The target still counts.
        let target = |t: &str| json!({"properties": {"p": {"$ref": "#/$defs/s", "description": "d"}}, "$defs": {"s": {"type": t}}});
        assert_eq!(changes(target("string"), target("integer")), vec![("/properties/p/type".into(), Breaking)]);
    }

    #[test]
    fn options_written_alike_are_compared_through_their_refs() {
        let with = |t: &str| json!({"anyOf": [{"$ref": "#/$defs/a"}, {"type": "null"}], "$defs": {"a": {"type": t}}});
        assert_eq!(changes(with("string"), with("integer")), vec![("/anyOf/0/type".into(), Breaking)]);
        let all = |t: &str| json!({"allOf": [{"$ref": "#/$defs/a"}], "$defs": {"a": {"type": "object", "properties": {"x": {"type": t}}}}});
        let c = changes(all("string"), all("integer"));
        assert_eq!(c, vec![("/allOf/0/properties/x/type".into(), Breaking)]);
    }

    #[test]
    fn shared_definitions_are_compared_once() {
        // 40 levels, each referring to the one below twice: 2^40 paths to the bottom.
        let defs = |max: u32| {
            let mut defs = serde_json::Map::new();
            defs.insert("L0".into(), json!({"type": "string", "maxLength": max}));
            for level in 1..=40 {
                let below = format!("#/$defs/L{}", level - 1);
                let node = json!({"properties": {"a": {"$ref": below}, "b": {"$ref": below}}});
                defs.insert(format!("L{level}"), node);
            }
            json!({"$ref": "#/$defs/L40", "$defs": defs})
        };
        let c = changes(defs(9), defs(5));
        assert!(!c.is_empty() && c.len() < 100, "{}", c.len());
        assert!(c.iter().all(|(p, i)| p.ends_with("/maxLength") && *i == Breaking));
    }

    #[test]
    fn options_edited_in_place_are_compared_with_their_old_selves() {
        let any = |v: Value| json!({ "anyOf": v });
        let (s, n) = (json!({"type": "string"}), json!({"type": "null"}));
        let described = json!({"type": "string", "description": "a name"});
        assert_eq!(one(any(json!([s, n])), any(json!([described, n]))), ("/anyOf/0/description".into(), Compatible));
        let e = |v: Value| json!({"type": "object", "properties": {"mode": {"enum": v}}});
        let c = one(any(json!([n, e(json!(["a"]))])), any(json!([n, e(json!(["a", "b"]))])));
        assert_eq!(c, ("/anyOf/1/properties/mode/enum".into(), Compatible));
        let c = one(any(json!([n, e(json!(["a", "b"]))])), any(json!([n, e(json!(["a"]))])));
        assert_eq!(c, ("/anyOf/1/properties/mode/enum".into(), Breaking));
        // allOf: a member edited to refuse more breaks.
        let all = |max: u32| json!({"allOf": [{"type": "string"}, {"maxLength": max}]});
        assert_eq!(one(all(9), all(5)), ("/allOf/1/maxLength".into(), Breaking));
        assert_eq!(one(all(5), all(9)), ("/allOf/1/maxLength".into(), Compatible));
        // As many options went as came, in another order: each compared with the one in its place.
        let c = changes(any(json!([s, n])), any(json!([n, {"type": "integer"}])));
        assert_eq!(c, vec![("/anyOf/1/type".into(), Breaking)]);
        // One option went and two came: the one taking the same values is compared with it.
        let c = changes(any(json!([n, s])), any(json!([n, described, {"type": "integer"}])));
        assert_eq!(c, vec![("/anyOf/1/description".into(), Compatible), ("/anyOf/2".into(), Compatible)]);
        // None takes the same values: removed and added, not compared.
        let short = json!({"type": "string", "maxLength": 3});
        let c = changes(any(json!([n, s])), any(json!([n, short, {"type": "integer"}])));
        assert!(c.contains(&("/anyOf/1".into(), Breaking)), "{c:?}");
    }

    #[test]
    fn an_option_list_gained_breaks_nothing_when_one_option_takes_the_old_values() {
        let old = json!({"type": "integer", "minimum": 0});
        let widened = json!({"anyOf": [{"type": "integer", "minimum": 0}, {"type": "string"}]});
        let c = changes(old.clone(), widened);
        assert!(c.iter().all(|(_, i)| *i == Compatible) && c.contains(&("/anyOf".into(), Compatible)), "{c:?}");
        // The node's own keywords count with each option: here the option adds no restriction.
        let c = changes(old.clone(), json!({"minimum": 0, "oneOf": [{"type": "integer"}, {"type": "null"}]}));
        assert!(c.iter().all(|(_, i)| *i == Compatible), "{c:?}");
        // No option takes every integer from 0 up: breaking, with the nearest option's change.
        let c = changes(old, json!({"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]}));
        assert_eq!(c, vec![("/anyOf".into(), Breaking), ("/anyOf/0/minimum".into(), Breaking)]);
        // Options that require what was optional: breaking, the node's own change at its own path.
        let props = json!({"a": {"type": "string"}, "b": {"type": "string"}});
        let before = json!({"type": "object", "properties": props});
        let after = json!({"type": "object", "properties": props, "maxProperties": 3, "anyOf": [{"required": ["a"]}, {"required": ["b"]}]});
        let c = changes(before, after);
        assert!(c.contains(&("/maxProperties".into(), Breaking)), "{c:?}");
        assert!(c.contains(&("/anyOf/0/required/a".into(), Breaking)), "{c:?}");
    }

    #[test]
    fn options_that_cover_the_other_side_type_by_type_take_its_values() {
        let list = json!({"type": ["number", "null"]});
        let options = json!({"anyOf": [{"type": "number"}, {"type": "null"}]});
        // The same values either way: a response that lost the list, a request that gained it.
        assert_eq!(out_changes(options.clone(), list.clone()), vec![("/anyOf".into(), Compatible)]);
        assert_eq!(changes(list.clone(), options.clone()), vec![("/anyOf".into(), Compatible)]);
        let what = diff(&list, &options, "", Direction::Request).remove(0).what;
        let covered = "null: option 1, number: option 0";
        assert_eq!(what, format!("anyOf added: its options together take every value taken before ({covered})"));
        // oneOf, integers within numbers: the option's own changes are listed, none breaking.
        let one_of = json!({"oneOf": [{"type": "null"}, {"type": "number", "description": "a count"}]});
        let c = changes(json!({"type": ["integer", "null"]}), one_of.clone());
        assert!(c[0] == ("/oneOf".into(), Compatible) && c.iter().all(|(_, i)| *i == Compatible), "{c:?}");
        assert!(c.contains(&("/oneOf/1/type".into(), Compatible)), "integer widened to number: {c:?}");
        let c = out_changes(one_of, json!({"type": ["null", "integer"]}));
        assert!(c[0] == ("/oneOf".into(), Compatible) && c.iter().all(|(_, i)| *i == Compatible), "{c:?}");
        // A keyword beside the types that only one option's type heeds.
        let bounded = json!({"type": ["string", "null"], "maxLength": 5});
        let split = json!({"anyOf": [{"type": "string", "maxLength": 5}, {"type": "null"}]});
        assert_eq!(changes(bounded.clone(), split.clone()), vec![("/anyOf".into(), Compatible)]);
        assert_eq!(out_changes(split, bounded), vec![("/anyOf".into(), Compatible)]);
        // A type no option takes, or an option narrower than its type was: still breaking.
        let c = changes(json!({"type": ["number", "null", "string"]}), options.clone());
        assert!(c.contains(&("/anyOf".into(), Breaking)), "{c:?}");
        let c = changes(list.clone(), json!({"anyOf": [{"type": "number", "minimum": 0}, {"type": "null"}]}));
        assert!(c.contains(&("/anyOf".into(), Breaking)), "{c:?}");
        let c = out_changes(options.clone(), json!({"type": ["number", "null", "boolean"]}));
        assert!(c.contains(&("/anyOf".into(), Breaking)), "{c:?}");
        // The other ways round were compared option by option already.
        assert!(out_changes(list.clone(), options.clone()).iter().all(|(_, i)| *i == Compatible));
        assert!(changes(options, list).iter().all(|(_, i)| *i == Compatible));
    }

    #[test]
    fn option_lists_gained_inside_each_other_stay_cheap() {
        // Twelve levels of definitions, each of ten new options referring to the level below: the
        // options would be compared 10^12 times; the trial budget bounds the work.
        let mut old_defs = Map::new();
        let mut new_defs = Map::new();
        old_defs.insert("L0".into(), json!({"type": "string"}));
        new_defs.insert("L0".into(), json!({"type": "string", "minLength": 1}));
        for level in 1..=12 {
            let below = format!("#/$defs/L{}", level - 1);
            old_defs.insert(format!("L{level}"), json!({"type": "object", "properties": {"x": {"$ref": below}}}));
            let options: Vec<Value> =
                (0..10).map(|i| json!({"properties": {"x": {"$ref": below}}, "maxProperties": i + 1})).collect();
            new_defs.insert(format!("L{level}"), json!({"type": "object", "anyOf": options}));
        }
        let old = json!({"$ref": "#/$defs/L12", "$defs": old_defs});
        let new = json!({"$ref": "#/$defs/L12", "$defs": new_defs});
        // Past the bound, the list is said to be not classified, in one line.
        let c = diff(&old, &new, "", Direction::Request);
        assert_eq!(c.len(), 1, "{c:?}");
        assert_eq!((c[0].path.as_str(), c[0].impact), ("/anyOf", Breaking));
        assert!(c[0].what.contains("not classified"), "{}", c[0].what);
    }

    /// A tool's properties, `p0` to `p{n - 1}`, each the schema `each` gives for its number.
    fn many(n: usize, each: impl Fn(usize) -> Value) -> Value {
        let props: Map<String, Value> = (0..n).map(|i| (format!("p{i}"), each(i))).collect();
        json!({"type": "object", "properties": props})
    }

    #[test]
    fn many_lists_side_by_side_are_each_classified() {
        const KINDS: [&str; 6] = ["string", "integer", "number", "boolean", "array", "object"];
        let kind = |i: usize| KINDS[i % KINDS.len()];
        // Each nullable property written as a list of options: the same values, found with no
        // trial, both ways, in both directions.
        let listed = many(300, |i| json!({"type": [kind(i), "null"], "title": format!("P{i}")}));
        let options = many(
            300,
            |i| json!({"anyOf": [{"type": kind(i)}, {"type": "null"}], "title": format!("P{i}"), "default": null}),
        );
        for (old, new) in [(&listed, &options), (&options, &listed)] {
            for direction in [Direction::Request, Direction::Response] {
                let c = diff(old, new, "", direction);
                assert!(c.iter().all(|c| c.impact == Compatible), "{direction:?}: {c:?}");
                let lists = c.iter().filter(|c| c.path.ends_with("/anyOf")).count();
                assert_eq!(lists, 300, "{direction:?}: {c:?}");
            }
        }
        // Options that need trials: each list has its own, so the last is classified as the first.
        let plain = many(300, |i| json!({"type": kind(i)}));
        let stricter = many(300, |i| json!({"anyOf": [{"type": kind(i), "format": "x"}, {"type": "null"}]}));
        let c = diff(&plain, &stricter, "", Direction::Request);
        let breaking: Vec<&str> = c.iter().filter(|c| c.impact == Breaking).map(|c| c.what.as_str()).collect();
        assert_eq!(breaking.len(), 300 * 2, "{c:?}");
        assert!(!breaking.iter().any(|w| w.contains("not classified")), "{breaking:?}");
        let c = diff(&plain, &stricter, "", Direction::Response);
        assert!(c.iter().any(|c| c.path == "/properties/p299/anyOf" && c.impact == Breaking), "{c:?}");
    }

    #[test]
    fn any_of_and_one_of_take_the_same_values_when_no_two_options_overlap() {
        let (s, i, n) = (json!({"type": "string"}), json!({"type": "integer"}), json!({"type": "null"}));
        let (any, one_of) = (|v: Value| json!({ "anyOf": v }), |v: Value| json!({ "oneOf": v }));
        for (old, new) in [(any(json!([s, i])), one_of(json!([s, i]))), (one_of(json!([i, s])), any(json!([s, i])))] {
            let key = if new.get("oneOf").is_some() { "/oneOf" } else { "/anyOf" };
            assert_eq!(changes(old.clone(), new.clone()), vec![(key.into(), Compatible)]);
            assert_eq!(out_changes(old, new), vec![(key.into(), Compatible)]);
        }
        // A discriminated union, its options by `$ref`: no value has two kinds.
        let kind = |k: &str| json!({"type": "object", "properties": {"kind": {"const": k}}, "required": ["kind"]});
        let defs = json!({"cat": kind("cat"), "dog": kind("dog")});
        let refs = json!([{"$ref": "#/$defs/cat"}, {"$ref": "#/$defs/dog"}]);
        let c = changes(json!({"anyOf": refs, "$defs": defs}), json!({"oneOf": refs, "$defs": defs}));
        assert_eq!(c, vec![("/oneOf".into(), Compatible)]);
        // Options that may overlap: a string of up to 3 characters takes both.
        let (long, short) = (s.clone(), json!({"type": "string", "maxLength": 3}));
        let (a, o) = (any(json!([long, short])), one_of(json!([long, short])));
        assert_eq!(one(a.clone(), o.clone()), ("/oneOf".into(), Breaking));
        assert_eq!(out_one(a.clone(), o.clone()), ("/oneOf".into(), Compatible));
        assert_eq!(one(o.clone(), a.clone()), ("/anyOf".into(), Compatible));
        assert_eq!(out_one(o, a), ("/anyOf".into(), Breaking));
        // The options' own changes are found as in one list.
        let c = changes(any(json!([s, n])), one_of(json!([{"type": "string", "maxLength": 5}, n])));
        assert_eq!(c, vec![("/oneOf/0/maxLength".into(), Breaking), ("/oneOf".into(), Compatible)]);
    }

    #[test]
    fn options_merged_or_split_take_the_same_values() {
        let (s, i, n) = (json!({"type": "string"}), json!({"type": "integer"}), json!({"type": "null"}));
        let apart = json!({"anyOf": [s, i, n]});
        let merged = json!({"anyOf": [{"type": ["string", "integer"], "description": "an id"}, n]});
        for (old, new) in [(&apart, &merged), (&merged, &apart)] {
            assert_eq!(changes(old.clone(), new.clone()), vec![("/anyOf".into(), Compatible)]);
            assert_eq!(out_changes(old.clone(), new.clone()), vec![("/anyOf".into(), Compatible)]);
        }
        let what = diff(&apart, &merged, "", Direction::Request).remove(0).what;
        assert_eq!(what, "options 0, 1 regrouped as option 0: the same values");
        // Merged into an option that takes more: its values are new.
        let wider = json!({"anyOf": [{"type": ["string", "integer", "boolean"]}, n]});
        let c = out_changes(apart.clone(), wider.clone());
        assert!(c.contains(&("/anyOf/0".into(), Breaking)), "{c:?}");
        assert!(changes(apart.clone(), wider.clone()).iter().all(|(_, i)| *i == Compatible));
        // Split from one that took more: values are lost.
        let c = changes(wider, apart);
        assert!(c.iter().any(|(_, i)| *i == Breaking), "{c:?}");
        // Options alike but for an enum written as a const: compared, no change.
        let c = changes(json!({"anyOf": [{"enum": ["a"]}, n]}), json!({"anyOf": [n, {"const": "a", "title": "A"}]}));
        assert_eq!(c, vec![("/anyOf/1/title".into(), Compatible)]);
    }

    #[test]
    fn boolean_schemas() {
        assert_eq!(one(json!(true), json!(false)), ("".into(), Breaking));
        assert_eq!(one(json!(false), json!({})), ("".into(), Compatible));
        assert!(changes(json!(true), json!({})).is_empty());
    }

    #[test]
    fn restrictions_that_refuse_nothing_are_compatible() {
        let vacuous = [
            json!({"propertyNames": true}),
            json!({"propertyNames": {"description": "any key"}}),
            json!({"propertyNames": {"type": ["string", "null"]}}),
            json!({"patternProperties": {"^x-": {}}}),
            json!({"dependentRequired": {"a": []}}),
            json!({"dependencies": {"a": [], "b": true}}),
            json!({"unevaluatedProperties": {"title": "rest"}}),
        ];
        for v in vacuous {
            let key = v.as_object().unwrap().keys().next().unwrap().clone();
            assert_eq!(one(json!({}), v.clone()), (format!("/{key}"), Compatible), "{v}");
        }
        // Still restrictions: a key pattern, a value schema that refuses, a required dependency.
        assert_eq!(one(json!({}), json!({"propertyNames": {"type": "string", "pattern": "^a"}})).1, Breaking);
        assert_eq!(one(json!({}), json!({"propertyNames": {"type": "integer"}})).1, Breaking);
        assert_eq!(one(json!({}), json!({"patternProperties": {"^x-": {"type": "string"}}})).1, Breaking);
        assert_eq!(one(json!({}), json!({"dependentRequired": {"a": ["b"]}})).1, Breaking);
        // A real restriction replaced by one that refuses nothing loosens.
        let was = json!({"propertyNames": {"maxLength": 3}});
        assert_eq!(one(was, json!({"propertyNames": {}})).1, Compatible);
    }

    #[test]
    fn nested_option_lists_stand_for_their_members() {
        let (i, s, b) = (json!({"type": "integer"}), json!({"type": "string"}), json!({"type": "boolean"}));
        let one_of = |v: Value| json!({ "oneOf": v });
        // Flattened or nested the other way: no change.
        assert!(changes(one_of(json!([{"oneOf": [i, s]}, b])), one_of(json!([i, s, b]))).is_empty());
        assert!(changes(json!({"allOf": [i, {"allOf": [s, b]}]}), json!({"allOf": [{"allOf": [i, s]}, b]})).is_empty());
        // One member dropped in the flattening: reported where it stood, inside the nested list.
        let c = one(json!({"anyOf": [{"anyOf": [i, s]}, b]}), json!({"anyOf": [i, b]}));
        assert_eq!(c, ("/anyOf/0/anyOf/1".into(), Breaking));
        // A nested list with anything beside it is an option of its own; with an annotation, it
        // takes what its members take.
        let old = json!({"anyOf": [{"anyOf": [i, s], "description": "id"}, b]});
        assert_eq!(changes(old, json!({"anyOf": [i, s, b]})), vec![("/anyOf".into(), Compatible)]);
        let c = changes(json!({"anyOf": [i, s, b]}), json!({"anyOf": [{"anyOf": [i, s], "maxLength": 3}, b]}));
        assert!(c.iter().any(|(_, impact)| *impact == Breaking), "{c:?}");
        // Past the levels opened, the rest is one option: a change is found, never lost.
        let mut deep = json!({"anyOf": [i, s]});
        for _ in 0..(MAX_FLATTEN + 4) {
            deep = json!({ "anyOf": [deep] });
        }
        let c = changes(deep, json!({"anyOf": [i]}));
        assert!(c.iter().any(|(_, impact)| *impact == Breaking), "{c:?}");
    }

    #[test]
    fn an_output_breaks_callers_when_it_widens_or_loses_a_property() {
        let e = |v: Value| json!({ "enum": v });
        assert_eq!(out_one(e(json!(["a"])), e(json!(["a", "b"]))), ("/enum".into(), Breaking), "enum value added");
        assert_eq!(out_one(e(json!(["a", "b"])), e(json!(["a"]))), ("/enum".into(), Compatible), "enum value removed");
        assert_eq!(out_one(e(json!(["a"])), json!({})), ("/enum".into(), Breaking), "enum removed");
        assert_eq!(out_one(json!({}), json!({"const": 1})), ("/const".into(), Compatible), "const added");
        assert_eq!(out_one(json!({"const": 1}), json!({"const": 2})), ("/const".into(), Breaking), "const changed");
        let props = json!({"a": {"type": "string"}});
        let required = out_one(obj(props.clone(), &[]), obj(props.clone(), &["a"]));
        assert_eq!(required, ("/required/a".into(), Compatible), "made required");
        assert_eq!(out_one(obj(props.clone(), &["a"]), obj(props, &[])), ("/required/a".into(), Breaking), "optional");
        let base = obj(json!({"a": {"type": "string"}}), &["a"]);
        let two = json!({"a": {"type": "string"}, "b": {"type": "string"}});
        let c = out_one(base.clone(), obj(two.clone(), &["a", "b"]));
        assert_eq!(c, ("/properties/b".into(), Compatible), "new required property");
        assert_eq!(out_one(base.clone(), obj(two, &["a"])), ("/properties/b".into(), Compatible), "new optional");
        let c = out_one(obj(json!({"a": {}, "b": {}}), &[]), obj(json!({"a": {}}), &[]));
        assert_eq!(c, ("/properties/b".into(), Breaking), "property removed");
        let t = |t: Value| json!({ "type": t });
        assert_eq!(out_one(t(json!("integer")), t(json!("number"))), ("/type".into(), Breaking), "type widened");
        assert_eq!(out_one(t(json!("string")), t(json!(["string", "null"]))), ("/type".into(), Breaking));
        assert_eq!(out_one(t(json!("number")), t(json!("integer"))), ("/type".into(), Compatible), "type narrowed");
        assert_eq!(out_one(t(json!("string")), t(json!("integer"))), ("/type".into(), Breaking), "type replaced");
        assert_eq!(out_one(json!({"maximum": 5}), json!({"maximum": 9})), ("/maximum".into(), Breaking), "loosened");
        assert_eq!(out_one(json!({"minLength": 1}), json!({})), ("/minLength".into(), Breaking), "bound removed");
        assert_eq!(out_one(json!({"maximum": 9}), json!({"maximum": 5})), ("/maximum".into(), Compatible));
        assert_eq!(out_one(json!({}), json!({"maxItems": 5})), ("/maxItems".into(), Compatible), "bound added");
        assert_eq!(out_one(json!({}), json!({"uniqueItems": true})), ("/uniqueItems".into(), Compatible));
        let described = out_one(json!({"description": "a"}), json!({"description": "b"}));
        assert_eq!(described, ("/description".into(), Compatible), "description changed");
    }

    #[test]
    fn an_output_restriction_removed_breaks_and_one_added_does_not() {
        assert_eq!(out_one(json!({"pattern": "^a"}), json!({})), ("/pattern".into(), Breaking));
        assert_eq!(out_one(json!({"format": "uri"}), json!({})), ("/format".into(), Breaking));
        assert_eq!(out_one(json!({}), json!({"format": "uri"})), ("/format".into(), Compatible));
        // Replaced: which values it refuses now is not known, so it breaks either way.
        assert_eq!(out_one(json!({"pattern": "^a"}), json!({"pattern": "^b"})), ("/pattern".into(), Breaking));
        assert_eq!(one(json!({"pattern": "^a"}), json!({"pattern": "^b"})), ("/pattern".into(), Breaking));
        // A restriction that refuses nothing, added or removed, changes nothing either way.
        let record = json!({"propertyNames": {"type": "string"}});
        assert_eq!(out_one(json!({}), record.clone()), ("/propertyNames".into(), Compatible));
        assert_eq!(out_one(record, json!({})), ("/propertyNames".into(), Compatible));
        let closed = json!({"additionalProperties": false});
        assert_eq!(out_one(json!({}), closed.clone()), ("/additionalProperties".into(), Compatible));
        assert_eq!(out_one(closed, json!({})), ("/additionalProperties".into(), Breaking));
        assert_eq!(out_one(json!({"not": {"type": "null"}}), json!({})), ("/not".into(), Breaking));
    }

    #[test]
    fn an_output_breaks_callers_when_it_gains_an_option() {
        let any = |v: Value| json!({ "anyOf": v });
        let (s, i) = (json!({"type": "string"}), json!({"type": "integer"}));
        assert_eq!(out_one(any(json!([s])), any(json!([s, i]))), ("/anyOf/1".into(), Breaking), "anyOf option added");
        assert_eq!(out_one(any(json!([s, i])), any(json!([s]))), ("/anyOf/1".into(), Compatible), "option removed");
        assert_eq!(out_one(json!({"allOf": [s]}), json!({"allOf": [s, i]})), ("/allOf/1".into(), Compatible));
        // A string that may now be null: the nullable option is what breaks.
        let c = out_changes(s.clone(), any(json!([s, {"type": "null"}])));
        assert!(c.contains(&("/anyOf".into(), Breaking)) && c.contains(&("/anyOf/1/type".into(), Breaking)), "{c:?}");
        // Every option takes only strings: nothing a caller did not expect comes back.
        let narrower = any(json!([{"type": "string", "maxLength": 5}, {"type": "string", "pattern": "^a"}]));
        let c = out_changes(s.clone(), narrower);
        assert!(c.contains(&("/anyOf".into(), Compatible)) && c.iter().all(|(_, i)| *i == Compatible), "{c:?}");
        // The same gained as an input: no option takes every string, so calls may be refused.
        let c = changes(s, any(json!([{"type": "string", "maxLength": 5}, {"type": "string", "pattern": "^a"}])));
        assert!(c.contains(&("/anyOf".into(), Breaking)), "{c:?}");
    }

    #[test]
    fn what_breaks_both_ways() {
        for (old, new) in [
            // A property gone, or now refused whatever its value.
            (obj(json!({"a": {}, "b": {}}), &[]), obj(json!({"a": {}}), &[])),
            (obj(json!({"a": {}, "b": {"type": "string"}}), &[]), obj(json!({"a": {}, "b": false}), &[])),
            // A property made required in an object that took no other: old values lack it, new
            // ones hold a key the old schema refused.
            (
                json!({"type": "object", "properties": {"a": {}}, "additionalProperties": false}),
                json!({"type": "object", "properties": {"a": {}, "b": {}}, "required": ["b"], "additionalProperties": false}),
            ),
            (json!({"items": [{"type": "string"}]}), json!({"items": [{"type": "integer"}]})),
            (json!(1), json!({})),
        ] {
            assert!(changes(old.clone(), new.clone()).iter().any(|(_, i)| *i == Breaking), "input: {old} -> {new}");
            assert!(
                out_changes(old.clone(), new.clone()).iter().any(|(_, i)| *i == Breaking),
                "output: {old} -> {new}"
            );
        }
        // An optional property added to an object that took no other key widens it.
        let closed = |p: Value| json!({"type": "object", "properties": p, "additionalProperties": false});
        let (a, ab) = (closed(json!({"a": {}})), closed(json!({"a": {}, "b": {}})));
        assert_eq!(out_one(a.clone(), ab.clone()), ("/properties/b".into(), Breaking));
        assert_eq!(one(a, ab), ("/properties/b".into(), Compatible));
        // The whole schema turned `false` (no value at all) or from it.
        assert_eq!(out_one(json!(true), json!(false)), ("".into(), Compatible));
        assert_eq!(out_one(json!(false), json!({})), ("".into(), Breaking));
    }

    #[test]
    fn an_option_list_lost_is_compared_option_by_option() {
        let nullable = json!({"anyOf": [{"type": "number"}, {"type": "null"}]});
        let number = json!({"type": "number"});
        // A result that may no longer be null promises more; a call that may not be null is refused.
        let c = out_changes(nullable.clone(), number.clone());
        assert!(c.contains(&("/anyOf".into(), Compatible)) && c.iter().all(|(_, i)| *i == Compatible), "{c:?}");
        let c = changes(nullable.clone(), number.clone());
        assert!(c.contains(&("/anyOf".into(), Breaking)) && c.contains(&("/anyOf/1/type".into(), Breaking)), "{c:?}");
        // A call that fitted an option fits the same values written as a list of types.
        let listed = json!({"type": ["number", "null"]});
        assert!(changes(nullable, listed).iter().all(|(_, i)| *i == Compatible));
        // An output that now returns what no option took breaks, with the nearest option's change.
        let c = out_changes(json!({"anyOf": [{"type": "integer"}, {"type": "null"}]}), number);
        assert_eq!(c, vec![("/anyOf".into(), Breaking), ("/anyOf/0/type".into(), Breaking)]);
    }
}
