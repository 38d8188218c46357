//! The schema-to-form model for every kind of field, with the seed 003 person finder among them.

use serde_json::{Value, json};

use super::*;

fn child<'a>(f: &'a mut Field, key: &str) -> &'a mut Field {
    f.children.iter_mut().find(|c| c.key == key).unwrap_or_else(|| panic!("no field {key}"))
}

fn set(f: &mut Field, text: &str) {
    f.text = text.into();
    f.state = State::Set;
}

#[test]
fn scalars_and_omission() {
    let schema = json!({"type": "object", "properties": {
        "s": {"type": "string", "format": "email"}, "i": {"type": "integer"}, "n": {"type": "number"},
        "b": {"type": "boolean"}, "e": {"enum": ["a", "b"]}, "c": {"const": "fixed"},
        "d": {"type": "string", "default": "dflt"}, "opt": {"type": "object", "properties": {"x": {"type": "string"}}},
        "list": {"type": "array", "items": {"type": "string"}}
    }, "required": ["c"]});
    let mut form = Form::new(&schema);
    // Only the default and the required const: optional empty fields are omitted, not "" or null.
    assert_eq!(form.arguments(), json!({"c": "fixed", "d": "dflt"}));
    let r = &mut form.root;
    set(child(r, "s"), "a@b.c");
    set(child(r, "i"), "-12");
    set(child(r, "n"), "-.5");
    child(r, "b").choice = Some(1);
    child(r, "b").state = State::Set;
    child(r, "e").choice = Some(1);
    child(r, "e").state = State::Set;
    assert_eq!(
        form.arguments(),
        json!({"s": "a@b.c", "i": -12, "n": -0.5, "b": true, "e": "b", "c": "fixed", "d": "dflt"})
    );
    // Explicit empties and null when the user means them.
    child(&mut form.root, "s").state = State::Empty;
    child(&mut form.root, "list").state = State::Empty;
    child(&mut form.root, "opt").state = State::Null;
    let a = form.arguments();
    assert_eq!((a["s"].clone(), a["list"].clone(), a["opt"].clone()), (json!(""), json!([]), Value::Null));
}

#[test]
fn exact_integers_and_free_numbers() {
    let schema = json!({"properties": {"i": {"type": "integer"}, "n": {"type": "number"}}});
    let mut form = Form::new(&schema);
    set(child(&mut form.root, "i"), "18446744073709551615");
    set(child(&mut form.root, "n"), "1e3");
    assert_eq!(form.arguments().to_string(), r#"{"i":18446744073709551615,"n":1000.0}"#);
    set(child(&mut form.root, "i"), "1.5");
    assert!(parse_error(child(&mut form.root, "i")).is_some());
    assert_eq!(form.arguments().get("i"), None, "an unparsable number is not sent");
    // Only digits past 64 bits are sent to the JSON mode; other text is just not an integer.
    for (text, said) in [
        ("5x", "not an integer"),
        ("-", "not an integer"),
        ("1.5", "not an integer"),
        ("-99999999999999999999999", "not an integer (64-bit: beyond that, use the JSON mode)"),
    ] {
        set(child(&mut form.root, "i"), text);
        assert_eq!(parse_error(child(&mut form.root, "i")).as_deref(), Some(said), "{text}");
    }
}

#[test]
fn multi_enum_nullable_and_additional_properties() {
    let schema = json!({"properties": {
        "tags": {"type": "array", "items": {"enum": ["x", "y", "z"]}},
        "maybe": {"type": ["string", "null"]},
        "alt": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        "labels": {"type": "object", "additionalProperties": {"type": "integer"}}
    }});
    let mut form = Form::new(&schema);
    let tags = child(&mut form.root, "tags");
    assert_eq!(tags.kind, Kind::MultiEnum(vec![json!("x"), json!("y"), json!("z")]));
    tags.chosen = vec![true, false, true];
    tags.state = State::Set;
    let maybe = child(&mut form.root, "maybe");
    assert!(maybe.nullable && maybe.kind == Kind::Text);
    maybe.state = State::Null;
    let alt = child(&mut form.root, "alt");
    assert!(alt.nullable && alt.kind == Kind::Integer, "anyOf [X, null] is a nullable X");
    form.with_builder(
        |f, b| {
            let mut row = b.extra(f, "priority");
            row.text = "3".into();
            row.state = State::Set;
            f.children.push(row);
        },
        &[3],
    );
    assert_eq!(form.arguments(), json!({"tags": ["x", "z"], "maybe": null, "labels": {"priority": 3}}));
}

#[test]
fn arrays_of_objects_add_remove_reorder() {
    let schema = json!({"properties": {"rows": {"type": "array", "items": {"type": "object", "properties": {"k": {"type": "string"}, "v": {"type": "integer", "default": 1}}}}}});
    let mut form = Form::new(&schema);
    for name in ["a", "b", "c"] {
        form.with_builder(
            |arr, b| {
                let mut item = b.item(arr, arr.children.len());
                set(child(&mut item, "k"), name);
                arr.children.push(item);
                arr.state = State::Set;
            },
            &[0],
        );
    }
    assert_eq!(form.arguments(), json!({"rows": [{"k": "a", "v": 1}, {"k": "b", "v": 1}, {"k": "c", "v": 1}]}));
    let rows = child(&mut form.root, "rows");
    rows.children.remove(1);
    rows.children.swap(0, 1);
    assert_eq!(form.arguments(), json!({"rows": [{"k": "c", "v": 1}, {"k": "a", "v": 1}]}));
}

#[test]
fn variants_at_a_field_and_at_the_root() {
    let schema = json!({"oneOf": [
        {"title": "By id", "type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
        {"title": "By name", "type": "object", "properties": {"name": {"type": "string"}}}
    ]});
    let mut form = Form::new(&schema);
    assert_eq!(form.root.kind, Kind::Variant(vec!["By id".into(), "By name".into()]));
    form.with_builder(|f, b| b.choose(f, 1), &[]);
    set(child(&mut form.root.children[0], "name"), "Ada");
    assert_eq!(form.arguments(), json!({"name": "Ada"}));
}

#[test]
fn seed_003_person_finder_builds_any_valid_argument_object() {
    let tool = mcplens_demo::catalog::tools().into_iter().find(|t| t["name"] == "fg_findPersons").unwrap_or_default();
    let schema = tool["inputSchema"].clone();
    let mut form = Form::new(&schema);
    // Defaults are prefilled.
    assert_eq!(form.arguments(), json!({"limit": 10, "sort": "relevance", "include_inactive": false}));
    // queries: a required array of $ref PersonQuery with minItems 1 starts with one empty item.
    assert_eq!(form.root.children[0].children.len(), 1);
    let q = &mut form.root.children[0].children[0];
    assert_eq!(q.kind, Kind::Object);
    set(child(q, "fg_id"), "0b6e2f0c-8f4e-4c1a-9d7b-2a3e4f5a6b7c");
    let role = child(q, "role");
    role.choice = Some(2);
    role.state = State::Set;
    set(child(child(q, "address"), "country"), "DE");
    // match: oneOf [const "exact", {fuzziness}] — pick the object variant.
    let m = q.children.iter().position(|c| c.key == "match").unwrap_or(0);
    form.with_builder(|f, b| b.choose(f, 1), &[0, 0, m]);
    let q = &mut form.root.children[0].children[0];
    // The recursive reports_to is not built until asked for.
    let rt = q.children.iter().position(|c| c.key == "reports_to").unwrap_or(0);
    assert_eq!(q.children[rt].kind, Kind::Recursive);
    form.with_builder(|f, b| b.expand(f), &[0, 0, rt]);
    let q = &mut form.root.children[0].children[0];
    assert_eq!(q.children[rt].kind, Kind::Object);
    set(child(&mut q.children[rt], "fg_id"), "11111111-2222-4333-8444-555555555555");
    let args = form.arguments();
    assert_eq!(
        args,
        json!({
            "queries": [{
                "fg_id": "0b6e2f0c-8f4e-4c1a-9d7b-2a3e4f5a6b7c",
                "role": "designer",
                "address": {"country": "DE"},
                "match": {"fuzziness": 0.3},
                "reports_to": {"fg_id": "11111111-2222-4333-8444-555555555555"}
            }],
            "limit": 10, "sort": "relevance", "include_inactive": false
        })
    );
    assert_eq!(crate::schema::validate::validate(&schema, &args), Ok(vec![]));
    // The pointer of a nested field, for showing validation errors at it.
    assert_eq!(pointer(&form.root, &[0, 0, 0]), "/queries/0/fg_id");
    // And back: loading the arguments gives the same arguments.
    let mut again = Form::new(&schema);
    assert!(again.load(&args));
    assert_eq!(again.arguments(), args);
}

#[test]
fn odd_schemas_do_not_panic() {
    for s in [
        json!(null),
        json!(true),
        json!({"type": 3}),
        json!({"properties": {"a": {"$ref": "#"}}}),
        json!({"$ref": "#"}),
        json!({"oneOf": "x"}),
        json!({"type": ["string", "integer"]}),
    ] {
        let mut f = Form::new(&s);
        let _ = f.arguments();
        let _ = f.load(&json!({"a": {"a": {"a": 1}}}));
    }
}

#[test]
fn a_choice_of_titled_consts_is_an_enum_labelled_by_its_titles() {
    // Elicitation's titled enums (SEP-1330), the legacy enumNames, and a multi-select of consts.
    let schema = json!({"type": "object", "properties": {
        "hero": {"type": "string", "oneOf": [{"const": "h1", "title": "Superman"}, {"const": "h2", "title": "Batman"}]},
        "pet": {"type": "string", "enum": ["p1", "p2"], "enumNames": ["Cat", "Dog"]},
        "fish": {"type": "array", "items": {"anyOf": [{"const": "f1", "title": "Tuna"}, {"const": "f2"}]}},
        "mixed": {"oneOf": [{"const": 1}, {"type": "string"}]}}});
    let form = Form::new(&schema);
    let kinds: Vec<&Kind> = form.root.children.iter().map(|f| &f.kind).collect();
    assert_eq!(kinds[0], &Kind::Enum(vec![json!("h1"), json!("h2")]));
    assert_eq!(kinds[2], &Kind::MultiEnum(vec![json!("f1"), json!("f2")]));
    assert!(matches!(kinds[3], Kind::Variant(_)), "not every member is a const: still variants");
    let labels: Vec<Vec<String>> = form.root.children.iter().take(3).map(option_labels).collect();
    assert_eq!(labels[0], ["Superman (h1)", "Batman (h2)"]);
    assert_eq!(labels[1], ["Cat (p1)", "Dog (p2)"]);
    assert_eq!(labels[2], ["Tuna (f1)", "f2"]);
}

fn count(f: &Field) -> usize {
    1 + f.children.iter().map(count).sum::<usize>()
}

/// Definitions of twelve properties, each a `$ref` to the next, five deep: 250,000 fields from a
/// schema of two kilobytes. The form builds about its size bound of them (`MIN_NODES`, the
/// schema being small) and folds the rest, each built when opened.
#[test]
fn refs_that_multiply_are_built_as_they_are_opened() {
    let def = |k: usize| {
        let props: Map<String, Value> =
            (0..12).map(|i| (format!("f{i}"), json!({"$ref": format!("#/$defs/d{}", k + 1)}))).collect();
        json!({"type": "object", "properties": props})
    };
    let mut defs: Map<String, Value> = (0..5).map(|k| (format!("d{k}"), def(k))).collect();
    defs.insert("d5".into(), json!({"type": "string"}));
    let schema = json!({"type": "object", "$defs": defs, "properties": {"x": {"$ref": "#/$defs/d0"}}});
    let mut form = Form::new(&schema);
    let n = count(&form.root);
    let bound = crate::schema::tree::size_bound(&schema, EAGER_FIELDS);
    assert_eq!(bound, crate::schema::tree::MIN_NODES);
    assert!(n > bound && n < 2 * bound, "{n} fields built");
    let path = folded_path(&form.root).expect("a folded field");
    let folded = field_at(&form.root, &path).map(|f| (f.kind.clone(), f.deferred));
    assert_eq!(folded, Some((Kind::Recursive, true)));
    form.with_builder(|f, b| b.expand(f), &path);
    let opened = field_at(&form.root, &path).map(|f| (f.kind.clone(), f.children.len()));
    assert_eq!(opened, Some((Kind::Object, 12)));
}

/// 2,200 properties naming one definition of 40 (64 KiB): the fields built at once are bounded
/// by the schema's size, not by [`EAGER_FIELDS`]; the rest open when asked.
#[test]
fn a_small_schema_of_many_refs_builds_fields_by_its_size() {
    let props: Map<String, Value> = (0..40).map(|i| (format!("f{i}"), json!({"type": "string"}))).collect();
    let refs: Map<String, Value> = (0..2_200).map(|i| (format!("p{i}"), json!({"$ref": "#/$defs/R"}))).collect();
    let schema = json!({"type": "object", "properties": refs, "$defs": {"R": {"type": "object", "properties": props}}});
    let mut form = Form::new(&schema);
    let bound = crate::schema::tree::size_bound(&schema, EAGER_FIELDS);
    assert!(bound < EAGER_FIELDS / 2, "{bound}");
    let n = count(&form.root);
    assert!(n <= bound + 2 * 40 + 2_200, "{n} fields built, bound {bound}");
    assert_eq!(form.root.children.len(), 2_200);
    let last = vec![2_199];
    assert!(field_at(&form.root, &last).is_some_and(|f| f.deferred));
    form.with_builder(|f, b| b.expand(f), &last);
    assert_eq!(field_at(&form.root, &last).map(|f| f.children.len()), Some(40));
}

fn folded_path(f: &Field) -> Option<Vec<usize>> {
    // A field folded on its way to the strings of d5 opens as text; one above, as an object.
    if f.deferred && f.schema.get("$ref") != Some(&json!("#/$defs/d5")) {
        return Some(vec![]);
    }
    f.children.iter().enumerate().find_map(|(i, c)| {
        let mut p = folded_path(c)?;
        p.insert(0, i);
        Some(p)
    })
}

/// An elicitation's default beyond 64 bits (a stand-in, see `mcp::exact_numbers`) shows its
/// digits and is sent whole while the text still reads it; an edit makes it an ordinary number.
#[test]
fn a_default_kept_whole_is_shown_and_sent_until_edited() {
    let stand_in = crate::mcp::exact_numbers::number("12345678901234567890123").unwrap_or_default();
    let schema = json!({"type": "object", "properties": {"i": {"type": "integer", "default": stand_in.clone()}}});
    let mut form = Form::new(&schema);
    let i = child(&mut form.root, "i");
    assert_eq!((i.text.as_str(), parse_error(i)), ("12345678901234567890123", None));
    assert_eq!(form.arguments(), json!({"i": stand_in}));
    set(child(&mut form.root, "i"), "7");
    assert_eq!(form.arguments(), json!({"i": 7}));
}

/// A field of JSON (no declared type) keeps a number a float would round as typed, and a value
/// holding one loads as its digits.
#[test]
fn a_json_field_keeps_a_typed_number_whole() {
    let big = "123456789012345678901234567890";
    let mut form = Form::new(&json!({"type": "object", "properties": {"any": {}}}));
    set(child(&mut form.root, "any"), &format!("[{big}]"));
    let sent = form.arguments();
    assert_eq!(crate::mcp::exact_numbers::literal(&sent["any"][0]).as_deref(), Some(big));
    let mut again = Form::new(&json!({"type": "object", "properties": {"any": {}}}));
    again.load(&sent);
    assert_eq!(child(&mut again.root, "any").text, format!("[{big}]"));
}

/// The JSON mode's view of the fields: a number typed beyond what they send keeps its digits;
/// text that is no value of its kind is named, not dropped.
#[test]
fn the_json_mode_shows_typed_numbers_whole_and_names_text_it_cannot_show() {
    let schema = json!({"type": "object", "properties": {
        "i": {"type": "integer"}, "n": {"type": "number"}, "j": {}, "s": {"type": "string"}
    }});
    let mut form = Form::new(&schema);
    let big = "123456789012345678901234567890";
    set(child(&mut form.root, "i"), big);
    set(child(&mut form.root, "n"), "1e400");
    set(child(&mut form.root, "s"), "5x");
    let shown = form.json_arguments();
    let literal = |v: &Value| crate::mcp::exact_numbers::literal(v).unwrap_or_default();
    assert_eq!(
        (literal(&shown["i"]), literal(&shown["n"]), shown["s"].clone()),
        (big.into(), "1e400".into(), json!("5x"))
    );
    assert_eq!(form.arguments(), json!({"s": "5x"}), "the fields still send 64-bit integers and floats only");
    assert_eq!(json_mode_error(child(&mut form.root, "i")), None);
    for (key, text, why) in [
        ("i", "5x", "`5x` is not an integer"),
        ("i", "1.5", "`1.5` is not an integer"),
        ("n", " qKi/R ", "`qKi/R` is not a number"),
        ("j", "{\"a\":", "`{\"a\":` is not valid JSON"),
    ] {
        set(child(&mut form.root, key), text);
        assert_eq!(json_mode_error(child(&mut form.root, key)).as_deref(), Some(why), "{key} = {text:?}");
    }
}

/// A member absent from the arguments loaded is absent from what the form builds, however deep
/// the defaults and prefilled items of the fresh fields under it.
#[test]
fn a_member_left_out_of_the_loaded_arguments_sends_nothing_from_under_it() {
    let schema = json!({"type": "object", "properties": {
        "opts": {"type": "object", "properties": {
            "limit": {"type": "integer", "default": 10},
            "match": {"enum": ["exact", "fuzzy"], "default": "exact"},
            "how": {"oneOf": [{"const": "exact", "title": "Exact"}, {"type": "object", "title": "Fuzzy"}], "default": "exact"},
            "deeper": {"type": "object", "properties": {"depth": {"type": "integer", "default": 2}}}
        }},
        "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "kinds": {"type": "array", "items": {"const": "k"}, "default": ["k"]}
    }, "required": ["tags"]});
    let fresh = Form::new(&schema);
    let built = fresh.arguments();
    assert_eq!(built["opts"], json!({"limit": 10, "match": "exact", "how": "exact", "deeper": {"depth": 2}}));
    for args in [
        json!({}),
        json!({"opts": {}}),
        json!({"opts": {"match": "fuzzy"}}),
        json!({"opts": {"deeper": {}}, "kinds": []}),
        json!({"tags": ["a"], "opts": {"how": {}}}),
    ] {
        let mut form = Form::new(&schema);
        assert!(form.load(&args), "{args}");
        assert_eq!(form.arguments(), args);
    }
    // The prefilled item stays, to be filled in, and sends nothing.
    let mut form = Form::new(&schema);
    form.load(&json!({}));
    assert_eq!(child(&mut form.root, "tags").children.len(), 1);
}

#[test]
fn fields_and_differences_are_named_by_their_keys() {
    let schema = json!({"type": "object", "properties": {
        "queries": {"type": "array", "items": {"type": "object", "properties": {
            "match": {"oneOf": [{"const": "exact"}, {"type": "object", "title": "Fuzzy", "properties": {"f": {"type": "number"}}}]}
        }}}
    }});
    let mut form = Form::new(&schema);
    assert!(form.load(&json!({"queries": [{}, {"match": {"f": 0.5}}]})));
    // queries, [1], match, Fuzzy, f
    assert_eq!(label(&form.root, &[0, 1, 0, 0, 0]), "queries[1].match.f");
    let want = json!({"a": 1, "q": [{"m": 1}, {"m": {"f": 2}}]});
    assert_eq!(first_difference(&want, &want), None);
    assert_eq!(
        first_difference(&want, &json!({"a": 1, "q": [{"m": 1}, {"m": {"f": 3}}]})).as_deref(),
        Some("q[1].m.f")
    );
    assert_eq!(first_difference(&want, &json!({"q": [{"m": 1}, {"m": {"f": 2}}]})).as_deref(), Some("a"));
    assert_eq!(first_difference(&want, &json!({"a": 1, "q": [{"m": 1}]})).as_deref(), Some("q[1]"));
    assert_eq!(first_difference(&json!({}), &json!({"z": 0})).as_deref(), Some("z"));
}

/// `{}` in the arguments loaded for an optional object (or an added key) is the explicit empty
/// value the user set, sent again; a default of `{}` leaves the field omitted.
#[test]
fn an_empty_object_loaded_is_an_explicit_empty_value_and_a_default_of_one_is_omitted() {
    let schema = json!({"type": "object", "properties": {
        "opts": {"type": "object", "properties": {"limit": {"type": "integer", "default": 10}}},
        "params": {"type": "object", "additionalProperties": {}, "default": {}},
        "req": {"type": "object", "properties": {"x": {"type": "string"}}},
        "extra": {"type": "object", "additionalProperties": {"type": "object"}}
    }, "required": ["req"]});
    assert_eq!(Form::new(&schema).arguments(), json!({"opts": {"limit": 10}}));
    let args = json!({"opts": {}, "params": {}, "req": {}, "extra": {"k": {}}});
    let mut form = Form::new(&schema);
    assert!(form.load(&args));
    assert_eq!(form.arguments(), args);
    assert_eq!(child(&mut form.root, "opts").state, State::Empty);
}
