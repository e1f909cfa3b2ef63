//! PlayOK's WXF file: `FORMAT WXF`, tag lines of a word and a value
//! (`RED tmt6838g ; 1137 ;;`: the name, then the rating), then the moves
//! between `START{` and `}END`.

use super::reader::moves_after_tags;
use super::{GameText, RecordFormat};

/// Whether a text is PlayOK's WXF file.
pub fn is_playok(text: &str) -> bool {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty());
    first.is_some_and(|l| l.split_whitespace().next() == Some("FORMAT")) && text.contains("START{")
}

/// Reads the file: one game.
pub fn read(text: &str) -> GameText {
    let start = text.find("START{").expect("is_playok");
    let moves_at = start + "START{".len();
    let end = text[moves_at..]
        .find("}END")
        .map_or(text.len(), |e| moves_at + e);
    let mut tags: Vec<(String, String)> = Vec::new();
    for line in text[..start].lines() {
        let mut parts = line.trim().splitn(2, char::is_whitespace);
        let (Some(word), Some(value)) = (parts.next(), parts.next()) else {
            continue;
        };
        let value = value.trim();
        let (name, value) = match word {
            "FORMAT" => ("Format", value.to_owned()),
            "RED" | "BLACK" => {
                // `name ; rating ;;`
                let mut fields = value.split(';').map(str::trim);
                let player = fields.next().unwrap_or("").to_owned();
                let elo = fields.next().unwrap_or("");
                let side = if word == "RED" { "Red" } else { "Black" };
                if !elo.is_empty() {
                    tags.push((format!("{side}Elo"), elo.to_owned()));
                }
                (side, player)
            }
            "RESULT" => ("Result", value.to_owned()),
            "DATE" => ("Date", value.to_owned()),
            "EVENT" => ("Event", value.to_owned()),
            _ => continue,
        };
        if !value.is_empty() {
            tags.push((name.to_owned(), value));
        }
    }
    let first_line = 1 + text[..moves_at].matches('\n').count();
    let record = moves_after_tags(
        RecordFormat::PlayokWxf,
        tags,
        &text[moves_at..end],
        first_line,
    );
    GameText {
        first_line: 1,
        record,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn playok_files_read_their_players_and_moves() {
        let text = "FORMAT  WXF\nRED     tmt ; 1137 ;;\nBLACK   hu ; 1177 ;;\nRESULT  1-0\nSTART{\n 1. C8.5 c2.5   2. H8+7 }END\n";
        assert!(is_playok(text));
        let r = read(text).record.unwrap();
        assert_eq!(r.format, RecordFormat::PlayokWxf);
        assert_eq!(r.tag("Format"), Some("WXF"));
        assert_eq!(r.tag("Red"), Some("tmt"));
        assert_eq!(r.tag("RedElo"), Some("1137"));
        assert_eq!(r.tag("Result"), Some("1-0"));
        assert_eq!(r.move_texts(), ["C8.5", "c2.5", "H8+7"]);
        assert_eq!(r.moves[0].line, 6);
    }
}
