//! Query strings read by hand, so that every mistake gets its own message: an unknown
//! parameter, a repeated one, a missing one, a value out of range.

use std::collections::BTreeMap;

use axum::extract::{rejection::QueryRejection, Query};

use crate::error::ApiError;

/// The parameters of one request, checked against the names an endpoint accepts.
#[derive(Debug)]
pub struct Params {
    values: BTreeMap<String, String>,
}

impl Params {
    /// Reads the query string, refusing names outside `known` and names given twice.
    ///
    /// # Errors
    /// A 400 naming the bad parameter.
    pub fn read(
        query: Result<Query<Vec<(String, String)>>, QueryRejection>,
        known: &[&str],
    ) -> Result<Params, ApiError> {
        let Query(pairs) =
            query.map_err(|e| ApiError::bad(format!("the query string is malformed: {e}")))?;
        let mut values = BTreeMap::new();
        for (name, value) in pairs {
            if !known.contains(&name.as_str()) {
                return Err(ApiError::bad(format!(
                    "unknown parameter `{name}` (expected one of: {})",
                    known.join(", ")
                )));
            }
            if values.insert(name.clone(), value).is_some() {
                return Err(ApiError::bad(format!("parameter `{name}` is given twice")));
            }
        }
        Ok(Params { values })
    }

    /// The value of `name`, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// A whole number in `min..=max`, or `default` when absent.
    ///
    /// # Errors
    /// A 400 when the value is not a whole number or lies outside the range.
    pub fn number(&self, name: &str, default: u64, min: u64, max: u64) -> Result<u64, ApiError> {
        let Some(text) = self.get(name) else {
            return Ok(default);
        };
        let n: u64 = text.trim().parse().map_err(|_| {
            ApiError::bad(format!(
                "`{name}` must be a whole number from {min} to {max}, found `{text}`"
            ))
        })?;
        if n < min || n > max {
            return Err(ApiError::bad(format!(
                "`{name}` must be from {min} to {max}, found {n}"
            )));
        }
        Ok(n)
    }
}
