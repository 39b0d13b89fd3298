//! The page's files, compiled into the binary: `ply serve` needs nothing beside itself.

use axum::{
    http::{header, StatusCode},
    response::{IntoResponse, Response},
};

/// One embedded file: its bytes and content type.
#[derive(Debug, Clone, Copy)]
pub struct Asset {
    /// The path it is served at.
    pub path: &'static str,
    /// The content type.
    pub content_type: &'static str,
    /// The contents.
    pub body: &'static [u8],
}

/// Every file of the page.
pub const ASSETS: &[Asset] = &[
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        body: include_bytes!("../web/index.html"),
    },
    Asset {
        path: "/style.css",
        content_type: "text/css; charset=utf-8",
        body: include_bytes!("../web/style.css"),
    },
    Asset {
        path: "/main.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../web/main.js"),
    },
    Asset {
        path: "/settings.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../web/settings.js"),
    },
    Asset {
        path: "/game.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../web/game.js"),
    },
    Asset {
        path: "/api.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../web/api.js"),
    },
    Asset {
        path: "/review.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../web/review.js"),
    },
    Asset {
        path: "/step.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../web/step.js"),
    },
    Asset {
        path: "/address.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../web/address.js"),
    },
    Asset {
        path: "/render.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../web/render.js"),
    },
    Asset {
        path: "/render/board.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../web/render/board.js"),
    },
    Asset {
        path: "/render/status.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../web/render/status.js"),
    },
    Asset {
        path: "/render/moves.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../web/render/moves.js"),
    },
    Asset {
        path: "/render/chart.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../web/render/chart.js"),
    },
    Asset {
        path: "/picture.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../web/picture.js"),
    },
    Asset {
        path: "/explorer.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../web/explorer.js"),
    },
    Asset {
        path: "/explorer.css",
        content_type: "text/css; charset=utf-8",
        body: include_bytes!("../web/explorer.css"),
    },
    Asset {
        path: "/rules.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../web/rules.js"),
    },
    Asset {
        path: "/favicon.ico",
        content_type: "image/svg+xml",
        body: include_bytes!("../web/favicon.svg"),
    },
    Asset {
        path: "/favicon.svg",
        content_type: "image/svg+xml",
        body: include_bytes!("../web/favicon.svg"),
    },
];

/// The response for one asset.
pub fn respond(asset: &Asset) -> Response {
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, asset.content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        asset.body,
    )
        .into_response()
}
