//! The service in this process on an ephemeral port, spoken to over HTTP
//! (the tests of the API and of the game-site features share it).

use std::sync::Arc;

use arbiter::api::server::{self, ServeArgs};
use arbiter::api::AppState;
use reqwest::{Client, StatusCode};
use serde_json::Value;

pub struct Server {
    pub base: String,
    pub client: Client,
}

pub async fn start() -> Server {
    start_with(ServeArgs {
        workers: Some(1),
        ..ServeArgs::default()
    })
    .await
}

pub async fn start_with(args: ServeArgs) -> Server {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let state = Arc::new(AppState::new(args.engine_config(), args.fair_config()));
    let server = server::server(listener, &args, state).unwrap();
    actix_rt::spawn(server);
    Server {
        base: format!("http://{addr}"),
        client: Client::new(),
    }
}

impl Server {
    pub async fn get(&self, path: &str) -> (StatusCode, String, Value) {
        let r = self
            .client
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .unwrap();
        Self::read(r).await
    }

    pub async fn post(&self, path: &str, body: Value) -> (StatusCode, String, Value) {
        let r = self
            .client
            .post(format!("{}{path}", self.base))
            .json(&body)
            .send()
            .await
            .unwrap();
        Self::read(r).await
    }

    pub async fn post_raw(
        &self,
        path: &str,
        content_type: &str,
        body: Vec<u8>,
    ) -> (StatusCode, String, Value) {
        let r = self
            .client
            .post(format!("{}{path}", self.base))
            .header("content-type", content_type)
            .body(body)
            .send()
            .await
            .unwrap();
        Self::read(r).await
    }

    /// POSTs `body` as JSON with `Accept: accept`; the status and the
    /// answer's text.
    pub async fn post_accepting(
        &self,
        path: &str,
        accept: &str,
        body: Value,
    ) -> (StatusCode, String) {
        let r = self
            .client
            .post(format!("{}{path}", self.base))
            .header("accept", accept)
            .json(&body)
            .send()
            .await
            .unwrap();
        (r.status(), r.text().await.unwrap())
    }

    pub async fn read(r: reqwest::Response) -> (StatusCode, String, Value) {
        let status = r.status();
        let ct = r
            .headers()
            .get("content-type")
            .map(|v| v.to_str().unwrap().to_owned())
            .unwrap_or_default();
        let text = r.text().await.unwrap();
        let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, ct, value)
    }
}

/// Asserts an RFC 9457 problem with the given status and code.
pub fn assert_problem(resp: &(StatusCode, String, Value), status: u16, code: &str) {
    let (s, ct, body) = resp;
    assert_eq!(s.as_u16(), status, "{body}");
    assert_eq!(ct, "application/problem+json", "{body}");
    assert_eq!(body["status"], status, "{body}");
    assert_eq!(body["code"], code, "{body}");
    assert_eq!(
        body["type"],
        format!("urn:arbiter:problem:{}", code.replace('_', "-"))
    );
    assert!(body["title"].as_str().is_some_and(|t| !t.is_empty()));
    assert!(body["detail"].as_str().is_some_and(|t| !t.is_empty()));
}
