//! What the tests that run the real `arbiter` binary share: a server on a
//! free local port, killed when dropped.

#![allow(dead_code)] // each test binary uses a part

pub mod http;
pub mod load;

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The value of the sample `name` (no labels) in `/metrics` text.
pub fn metric_value(text: &str, name: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {name} in the metrics"))
}

/// A port nobody listens on now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `arbiter serve` on a free port, answering once `start` returns.
pub struct Server {
    /// The process (a test may signal it).
    pub child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
}

impl Server {
    /// Starts a server with `extra` options after `serve --bind ADDR`.
    pub fn start(extra: &[&str]) -> Server {
        Server::on(free_port(), extra)
    }

    /// Starts a server on `port`.
    pub fn on(port: u16, extra: &[&str]) -> Server {
        let addr = format!("127.0.0.1:{port}");
        let child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["serve", "--bind", &addr])
            .args(extra)
            .env("ARBITER_LOG", "error")
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let start = Instant::now();
        while std::net::TcpStream::connect(&addr).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "the server never came up"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Server {
            child,
            base: format!("http://{addr}"),
            addr,
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
