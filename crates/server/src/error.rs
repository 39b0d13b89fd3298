//! Every failure the API reports: a status code and a JSON `{"error": "..."}` that says what
//! is wrong. Handlers return `Result<Json<_>, ApiError>`, so no path can produce a bare 500.
//!
//! A refusal because the server is busy is a 503 that says when to come back: a
//! `Retry-After` header (whole seconds) and the same figure as `"retry_after_s"` in the body,
//! `{"error": "the server is busy …", "retry_after_s": 1}`. A client waits that long and asks
//! again; nothing else about the request was wrong.

use axum::{
    http::{header, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
    Json,
};

/// An error answer: the status and the message shown to the client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// HTTP status.
    pub status: StatusCode,
    /// What went wrong, in one line.
    pub message: String,
    /// For a refusal that a later try may not meet: seconds to wait before trying again
    /// (sent as `Retry-After`).
    pub retry_after: Option<u64>,
}

impl ApiError {
    /// 400: the request's parameters are wrong.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
            retry_after: None,
        }
    }

    /// 503: too many expensive requests at once; try again after `retry_after_s` seconds.
    pub fn busy(message: impl Into<String>, retry_after_s: u64) -> ApiError {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: message.into(),
            retry_after: Some(retry_after_s),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = serde_json::json!({ "error": self.message });
        if let Some(s) = self.retry_after {
            body["retry_after_s"] = s.into();
        }
        let mut response = (self.status, Json(body)).into_response();
        if let Some(s) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(s));
        }
        response
    }
}

/// The answer for a status with a fixed message (used by the fallback and the guards).
pub fn json_error(status: StatusCode, message: &str) -> Response {
    ApiError {
        status,
        message: message.to_owned(),
        retry_after: None,
    }
    .into_response()
}
