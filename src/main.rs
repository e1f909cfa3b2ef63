//! The `arbiter` command: the HTTP service and its tools.

use std::process::ExitCode;
use std::time::Instant;

use arbiter::dispatch::{Playable, Visitor};
use arbiter::variants::{self, Variant, VariantId};
use clap::{Parser, Subcommand};

/// The service allocates many small strings per request; mimalloc serves
/// them markedly faster than the system allocator (see the README's figures).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "arbiter",
    version,
    about = "A stateless rules service for Xiangqi, Tamerlane chess and Taxi chess"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the HTTP service.
    Serve(Box<arbiter::api::server::ServeArgs>),
    /// Count the leaves of the legal move tree (the move generator's truth test).
    Perft {
        /// The variant: xiangqi, taxi or tamerlane.
        #[arg(value_parser = parse_variant)]
        variant: VariantId,
        /// Depth in plies.
        depth: u32,
        /// Start from this FEN instead of the variant's start position.
        #[arg(long)]
        fen: Option<String>,
        /// Also print the count below each first move.
        #[arg(long)]
        divide: bool,
    },
    /// Search the bench positions of every variant to a fixed depth and
    /// print the nodes: the engine's signature (a change that moves it
    /// changes the search).
    Bench,
    /// Print the OpenAPI document of the HTTP API.
    Openapi,
    /// Xiangqi endgame tablebases.
    #[command(subcommand)]
    Tablebase(TablebaseCommand),
    /// Speak UCI (or UCCI, for Xiangqi) on standard input and output.
    Uci,
    /// Exit 0 if a local server answers `GET /healthz` with 200 (for the
    /// Docker HEALTHCHECK, where the image has no curl).
    Healthcheck {
        /// The server's address; by default the port of ARBITER_BIND on 127.0.0.1.
        #[arg(long)]
        addr: Option<String>,
    },
}

#[derive(Subcommand)]
enum TablebaseCommand {
    /// Generate tables by retrograde analysis, each verified before it is
    /// written (with every smaller table its captures lead to).
    Generate {
        /// Where the tables are written (created if missing); tables
        /// already there are read, not made again.
        #[arg(long, default_value = "tablebases")]
        out: std::path::PathBuf,
        /// Also write every table made or read as one bundle file (the
        /// form the default set is built into the binary in).
        #[arg(long)]
        bundle: Option<std::path::PathBuf>,
        /// A named set of endings, besides any materials given:
        /// `default` (built into the binary) or `defended` (an attacker
        /// with one of its own advisors or elephants against any
        /// advisors and elephants; docs/tablebases.md).
        #[arg(long, value_enum)]
        set: Option<TableSet>,
        /// Materials such as KRkaabb; with neither these nor `--set`, the
        /// default set.
        materials: Vec<String>,
    },
}

/// The named sets of `tablebase generate --set`.
#[derive(Clone, Copy, clap::ValueEnum)]
enum TableSet {
    /// The default set, built into the binary.
    Default,
    /// One attacker with one of its own advisors or elephants against any
    /// advisors and elephants.
    Defended,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Serve(args) => match arbiter::api::server::serve(*args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("arbiter: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Perft {
            variant,
            depth,
            fen,
            divide,
        } => {
            let result = variant.visit(Perft {
                depth,
                fen: fen.as_deref(),
                divide,
            });
            match result {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("arbiter: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Command::Uci => {
            let stdin = std::io::stdin();
            match arbiter::uci::run(stdin.lock(), std::io::stdout()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("arbiter: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Healthcheck { addr } => {
            let addr = addr.unwrap_or_else(|| {
                let bind = std::env::var("ARBITER_BIND")
                    .unwrap_or_else(|_| arbiter::api::defaults::BIND.into());
                let port = bind.rsplit(':').next().unwrap_or_default().to_owned();
                format!("127.0.0.1:{port}")
            });
            match healthcheck(&addr) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("arbiter: unhealthy: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Tablebase(TablebaseCommand::Generate {
            out,
            bundle,
            set,
            materials,
        }) => match generate_tables(&out, bundle.as_deref(), set, &materials) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("arbiter: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Openapi => {
            println!("{}", arbiter::api::openapi_json());
            ExitCode::SUCCESS
        }
        Command::Bench => {
            let start = Instant::now();
            let entries = arbiter::search::bench::run();
            for e in &entries {
                let at = e.fen.unwrap_or("the start");
                println!("{} {}: {} nodes", e.variant.as_str(), at, e.nodes);
            }
            let nodes = arbiter::search::bench::signature(&entries);
            let secs = start.elapsed().as_secs_f64();
            let stats: arbiter::search::SearchStats = entries.iter().map(|e| e.stats).sum();
            eprintln!(
                "depth {}, {secs:.2} s, {:.0} nodes/s; {} cut-offs, {:.1} % on the first move; \
                 {:.1} % of the nodes in quiescence",
                arbiter::search::bench::DEPTH,
                nodes as f64 / secs.max(1e-9),
                stats.cutoffs,
                stats.first_move_per_mille() as f64 / 10.0,
                stats.quiescence_nodes as f64 * 100.0 / nodes.max(1) as f64,
            );
            println!("{nodes}");
            ExitCode::SUCCESS
        }
    }
}

/// A variant named on the command line.
fn parse_variant(name: &str) -> Result<VariantId, String> {
    VariantId::parse(name).ok_or_else(|| {
        let known: Vec<&str> = VariantId::ALL.iter().map(|v| v.as_str()).collect();
        format!("unknown variant (known: {})", known.join(", "))
    })
}

/// `arbiter perft`, with whichever variant was named.
struct Perft<'a> {
    depth: u32,
    fen: Option<&'a str>,
    divide: bool,
}

impl Visitor for Perft<'_> {
    type Output = Result<(), String>;
    fn visit<V: Playable>(self) -> Result<(), String> {
        run_perft::<V>(self.depth, self.fen, self.divide)
    }
}

fn run_perft<V: Variant>(depth: u32, fen: Option<&str>, divide: bool) -> Result<(), String> {
    let rules = V::Rules::default();
    let mut pos = match fen {
        Some(f) => V::from_fen(f, &rules).map_err(|e| format!("invalid FEN: {e}"))?,
        None => V::start_position(&rules),
    };
    let start = Instant::now();
    let nodes = if divide {
        let split = variants::perft_divide(&mut pos, depth, V::Notation::default());
        for (mv, n) in &split {
            println!("{mv}: {n}");
        }
        split.iter().map(|(_, n)| n).sum()
    } else {
        variants::perft(&mut pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "time {secs:.3} s, {:.0} leaves/s",
        nodes as f64 / secs.max(1e-9)
    );
    println!("{nodes}");
    Ok(())
}

fn healthcheck(addr: &str) -> Result<(), String> {
    use std::io::{Read, Write};
    use std::net::ToSocketAddrs;
    use std::time::Duration;
    let target = addr
        .to_socket_addrs()
        .map_err(|e| format!("{addr}: {e}"))?
        .next()
        .ok_or_else(|| format!("{addr}: no address"))?;
    let timeout = Duration::from_secs(2);
    let mut stream = std::net::TcpStream::connect_timeout(&target, timeout)
        .map_err(|e| format!("{addr}: {e}"))?;
    stream.set_read_timeout(Some(timeout)).ok();
    stream
        .write_all(format!("GET /healthz HTTP/1.0\r\nHost: {addr}\r\n\r\n").as_bytes())
        .map_err(|e| e.to_string())?;
    let mut head = [0u8; 16];
    let n = stream.read(&mut head).map_err(|e| e.to_string())?;
    let status = String::from_utf8_lossy(&head[..n]);
    if status.starts_with("HTTP/1.1 200") || status.starts_with("HTTP/1.0 200") {
        Ok(())
    } else {
        Err(format!("{addr} answered {status:?}"))
    }
}

/// `arbiter tablebase generate`: the tables of `named` and `names` (or
/// the default set) and every smaller one they need, into `out`.
fn generate_tables(
    out: &std::path::Path,
    bundle: Option<&std::path::Path>,
    named: Option<TableSet>,
    names: &[String],
) -> Result<(), String> {
    use arbiter::tablebase::{
        closure, default_set, defended_set, file_name, Material, Table, Tables,
    };
    let mut set: Vec<Material> = match named {
        Some(TableSet::Defended) => defended_set(),
        Some(TableSet::Default) => default_set(),
        None if names.is_empty() => default_set(),
        None => Vec::new(),
    };
    for n in names {
        set.push(Material::parse(n).ok_or_else(|| format!("not a material: {n} (e.g. KRkaabb)"))?);
    }
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let start = Instant::now();
    let mut tables = Tables::new();
    for material in closure(&set) {
        if out.join(file_name(material)).exists() {
            tables.insert(Table::load(out, material).map_err(|e| e.to_string())?);
        }
    }
    let mut failed = None;
    tables
        .generate_set(&set, |table, took| {
            let c = table.census();
            let saved = table.save(out);
            let bytes = std::fs::metadata(out.join(file_name(table.material())))
                .map_or(0, |m| m.len());
            println!(
                "{:<10} {:>10} positions a side  {:>9} mates (longest {:>3} plies)  {:>9} draws ({:>7} may rest on a chase)  {:>7} by the rule  {:>6.2} s  {:>9} bytes",
                table.material().name(),
                table.size(),
                c.mates,
                c.longest,
                c.draws,
                c.chase,
                c.rule,
                took.as_secs_f64(),
                bytes
            );
            if let Err(e) = saved {
                failed.get_or_insert(e.to_string());
            }
        })
        .map_err(|e| e.to_string())?;
    if let Some(e) = failed {
        return Err(e);
    }
    if let Some(path) = bundle {
        // The files as written (compressing them again would take longer
        // than making the tables).
        let files = closure(&set)
            .into_iter()
            .map(|m| {
                let file = out.join(file_name(m));
                std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        std::fs::write(path, arbiter::tablebase::bundle(&files))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    eprintln!(
        "{} tables in {}, {:.1} s",
        tables.materials().len(),
        out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
