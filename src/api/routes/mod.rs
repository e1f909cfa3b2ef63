//! The routes, one file each: the request and response bodies, the
//! handler with its OpenAPI entry, the [`Visitor`](crate::dispatch::Visitor)
//! that runs it for the variant in the path, and the building of its
//! answer. [`routes`] registers each once. What several routes answer with
//! is shared: [`super::responses`], [`super::answers`].

pub mod adjudicate;
pub mod analyze;
pub mod batch;
pub mod diagram;
pub mod legal_moves;
pub mod operations;
pub mod review;
pub mod tablebase;
pub mod validate;
pub mod variants;

/// Every documented route, each registered once with its OpenAPI entry.
pub fn routes(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(variants::list_variants)
        .service(variants::get_variant)
        .service(legal_moves::legal_moves)
        .service(validate::validate)
        .service(adjudicate::adjudicate)
        .service(batch::adjudicate_batch)
        .service(analyze::analyze)
        .service(review::review)
        .service(tablebase::tablebase)
        .service(diagram::diagram_get)
        .service(diagram::diagram_post)
        .service(operations::healthz)
        .service(operations::readyz)
        .service(operations::metrics);
}
