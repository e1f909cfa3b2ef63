//! The HTTP API (placeholder while the core is built).
#[derive(clap::Args)]
pub struct ServeArgs {}
pub fn serve(_a: ServeArgs) -> std::io::Result<()> { Ok(()) }
pub fn openapi_json() -> String { String::new() }
