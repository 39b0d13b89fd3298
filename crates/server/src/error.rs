//! Every failure the API reports: a status code and a JSON `{"error": "..."}` that says what
//! is wrong. Handlers return `Result<Json<_>, ApiError>`, so no path can produce a bare 500.

use axum::{
    http::StatusCode,
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
}

impl ApiError {
    /// 400: the request's parameters are wrong.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    /// 503: too many expensive requests at once.
    pub fn busy(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: message.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = Json(serde_json::json!({ "error": self.message }));
        (self.status, body).into_response()
    }
}

/// The answer for a status with a fixed message (used by the fallback and the guards).
pub fn json_error(status: StatusCode, message: &str) -> Response {
    ApiError {
        status,
        message: message.to_owned(),
    }
    .into_response()
}
