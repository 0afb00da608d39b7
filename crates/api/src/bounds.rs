//! The bounds of every input, written once in the OpenAPI document (`maxLength`, `maxItems` on
//! the DTOs' fields and parameters) and enforced from it by the extractors in [`crate::extract`]:
//! what a client reads in the document is what the server refuses, so the two cannot drift.
//! A value over a bound answers 422 `formValidation` with `params.fields` naming the field and the
//! rule `max`, the shape the customer details' rules answer in (decision 0017).
//!
//! Also the document's own words on the captcha: every `recaptchaToken` is marked required, and
//! in test mode the served document pins it to the test token, so a schema-driven client
//! (schemathesis, `make schemathesis`) sends one the server accepts.

use std::any::TypeId;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::{Value, json};
use utoipa::IntoParams;
use utoipa::openapi::path::ParameterIn;

use crate::error::ApiError;

/// A path parameter longer than this is refused (ids, tokens and locales are all far shorter).
pub const MAX_PATH_PARAM: usize = 200;

fn document() -> &'static Value {
    static DOC: OnceLock<Value> = OnceLock::new();
    DOC.get_or_init(|| serde_json::to_value(crate::openapi()).expect("the document serialises"))
}

fn too_long(path: &str, max: u64, what: &str) -> ApiError {
    let mut field = path;
    while let Some(i) = field.strip_suffix(']').and_then(|f| f.rfind('[')) {
        field = &field[..i];
    }
    let field = field.rsplit('.').next().unwrap_or(field);
    ApiError {
        params: Some(json!({ "fields": { field: "max" }, "max": max })),
        ..ApiError::validation(format!("{path}: at most {max} {what}"))
    }
}

/// Checks a JSON body against the bounds of its schema (`T::name()` among the components).
pub fn check_body(schema_name: &str, value: &Value) -> Result<(), ApiError> {
    match document()["components"]["schemas"].get(schema_name) {
        Some(schema) => walk(schema, value, "", 0),
        None => Ok(()),
    }
}

fn walk(schema: &Value, value: &Value, path: &str, depth: usize) -> Result<(), ApiError> {
    if depth > 40 {
        return Ok(());
    }
    if let Some(name) = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.rsplit('/').next())
    {
        return match document()["components"]["schemas"].get(name) {
            Some(s) => walk(s, value, path, depth + 1),
            None => Ok(()),
        };
    }
    for key in ["allOf", "oneOf", "anyOf"] {
        for sub in schema
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let only_null = sub.get("type").and_then(Value::as_str) == Some("null");
            if !only_null {
                walk(sub, value, path, depth + 1)?;
            }
        }
    }
    let max = |key: &str| schema.get(key).and_then(Value::as_u64);
    match value {
        Value::String(s) => {
            if let Some(m) = max("maxLength")
                && s.chars().count() as u64 > m
            {
                return Err(too_long(path, m, "characters"));
            }
        }
        Value::Array(items) => {
            if let Some(m) = max("maxItems")
                && items.len() as u64 > m
            {
                return Err(too_long(path, m, "items"));
            }
            if let Some(item) = schema.get("items") {
                for (i, v) in items.iter().enumerate() {
                    walk(item, v, &format!("{path}[{i}]"), depth + 1)?;
                }
            }
        }
        Value::Object(map) => {
            if let Some(props) = schema.get("properties").and_then(Value::as_object) {
                for (k, v) in map {
                    if let Some(p) = props.get(k) {
                        let at = if path.is_empty() {
                            k.clone()
                        } else {
                            format!("{path}.{k}")
                        };
                        walk(p, v, &at, depth + 1)?;
                    }
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// JSON has one kind of number, and JSON Schema counts `3.0` as an integer: such numbers become
/// integers, so an id sent as `3.0` is read as 3 (a fraction still fails where an integer is due).
pub fn integral_floats(value: Value) -> Value {
    match value {
        Value::Number(n) if n.is_f64() => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Value::from(f as i64),
            _ => Value::Number(n),
        },
        Value::Array(items) => Value::Array(items.into_iter().map(integral_floats).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (k, integral_floats(v)))
                .collect(),
        ),
        other => other,
    }
}

/// The query parameters' schemas of `T`, by name (computed once per type).
fn query_schemas<T: IntoParams + 'static>() -> Arc<HashMap<String, Value>> {
    type Cache = Mutex<HashMap<TypeId, Arc<HashMap<String, Value>>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(found) = cache.lock().expect("bounds cache").get(&TypeId::of::<T>()) {
        return found.clone();
    }
    let schemas: HashMap<String, Value> = T::into_params(|| Some(ParameterIn::Query))
        .into_iter()
        .filter_map(|p| {
            let v = serde_json::to_value(&p).ok()?;
            Some((v["name"].as_str()?.to_owned(), v.get("schema")?.clone()))
        })
        .collect();
    let schemas = Arc::new(schemas);
    cache
        .lock()
        .expect("bounds cache")
        .insert(TypeId::of::<T>(), schemas.clone());
    schemas
}

/// Checks the query's values against the bounds of `T`'s parameters.
pub fn check_query<T: IntoParams + 'static>(pairs: &[(String, String)]) -> Result<(), ApiError> {
    let schemas = query_schemas::<T>();
    for (name, value) in pairs {
        if let Some(schema) = schemas.get(name) {
            walk(schema, &Value::String(value.clone()), name, 0)?;
        }
    }
    Ok(())
}

/// Checks path parameters against [`MAX_PATH_PARAM`].
pub fn check_path<'a>(values: impl Iterator<Item = (&'a str, &'a str)>) -> Result<(), ApiError> {
    for (name, value) in values {
        if value.chars().count() > MAX_PATH_PARAM {
            return Err(too_long(name, MAX_PATH_PARAM as u64, "characters"));
        }
    }
    Ok(())
}

/// The captcha in the document: every `recaptchaToken` parameter and body field is required
/// (a call without one is refused unless the captcha is off), and its description says so.
pub fn describe_captcha(doc: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
    use utoipa::openapi::{RefOr, Required};
    const WORDS: &str = "The captcha token (spec section 7). Required: a call without an \
                         accepted token answers 400 `recaptcha` (unless the server runs with the \
                         captcha off). In test mode only the test token is accepted, and the \
                         document the server serves (GET /api/openapi.json) pins it.";
    let token = |described: bool| {
        RefOr::T(Schema::Object(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .max_length(Some(2000))
                .description(described.then_some(WORDS))
                .build(),
        ))
    };
    for item in doc.paths.paths.values_mut() {
        let ops = [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.patch,
        ];
        for op in ops.into_iter().flatten() {
            for p in op.parameters.iter_mut().flatten() {
                if let RefOr::T(p) = p
                    && p.name == "recaptchaToken"
                {
                    p.required = Required::True;
                    p.description = Some(WORDS.into());
                    p.schema = Some(token(false));
                }
            }
        }
    }
    for schema in doc
        .components
        .iter_mut()
        .flat_map(|c| c.schemas.values_mut())
    {
        if let RefOr::T(Schema::Object(o)) = schema
            && o.properties.contains_key("recaptchaToken")
        {
            o.properties.insert("recaptchaToken".into(), token(true));
            if !o.required.iter().any(|r| r == "recaptchaToken") {
                o.required.push("recaptchaToken".into());
            }
        }
    }
}

/// The served document in test mode: each `recaptchaToken` can only be the test token.
pub fn pin_test_captcha(doc: &mut Value, token: &str) {
    for op in operations(doc) {
        for p in op
            .get_mut("parameters")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            if p["name"] == "recaptchaToken" {
                p["schema"]["enum"] = json!([token]);
            }
        }
    }
    if let Some(schemas) = doc["components"]["schemas"].as_object_mut() {
        for schema in schemas.values_mut() {
            // Never `schema["properties"]`: indexing a missing key would insert a null.
            if let Some(t) = schema
                .get_mut("properties")
                .and_then(|p| p.get_mut("recaptchaToken"))
            {
                t["enum"] = json!([token]);
            }
        }
    }
}

fn operations(doc: &mut Value) -> impl Iterator<Item = &mut Value> {
    doc["paths"]
        .as_object_mut()
        .into_iter()
        .flat_map(|paths| paths.values_mut())
        .filter_map(Value::as_object_mut)
        .flat_map(|ops| ops.values_mut())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_string_over_its_max_length_is_named_by_its_field() {
        let schema = json!({ "type": "object", "properties": {
            "cart": { "type": "object", "properties": {
                "items": { "type": "array", "maxItems": 2, "items": { "type": "string", "maxLength": 3 } },
                "name": { "oneOf": [{ "type": "null" }, { "type": "string", "maxLength": 4 }] } } } } });
        assert!(
            walk(
                &schema,
                &json!({ "cart": { "items": ["abc"], "name": "abcd" } }),
                "",
                0
            )
            .is_ok()
        );
        let e = walk(&schema, &json!({ "cart": { "name": "abcde" } }), "", 0).unwrap_err();
        assert_eq!(e.code, kupa_app::ErrorCode::FormValidation);
        assert_eq!(e.params.unwrap()["fields"]["name"], "max");
        assert!(e.message.starts_with("cart.name:"), "{}", e.message);
        let e = walk(
            &schema,
            &json!({ "cart": { "items": ["a", "b", "c"] } }),
            "",
            0,
        )
        .unwrap_err();
        assert!(e.message.contains("at most 2 items"), "{}", e.message);
        let e = walk(&schema, &json!({ "cart": { "items": ["abcd"] } }), "", 0).unwrap_err();
        assert_eq!(
            e.params.unwrap()["fields"]["items"],
            "max",
            "an item is named by its list"
        );
        assert!(walk(&schema, &json!({ "cart": { "name": null } }), "", 0).is_ok());
    }

    #[test]
    fn whole_floats_are_integers() {
        assert_eq!(
            integral_floats(json!({ "a": [3.0, 2.5, -7.0, "x"] })),
            json!({ "a": [3, 2.5, -7, "x"] })
        );
    }
}
