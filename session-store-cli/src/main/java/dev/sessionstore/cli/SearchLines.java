package dev.sessionstore.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sessionstore.SearchHit;
import dev.sessionstore.SearchPage;

/**
 * Prints a page of search hits: for people a table (session, seq, type, time, excerpt with each match in
 * {@code [brackets]}, the excerpt shown from a little before its first match) and a {@code more: --after <cursor>}
 * line when more hits follow; with {@code --json} JSON lines: one object per hit (the event as {@code events --json}
 * prints it, with {@code score}, {@code excerpt} and {@code highlights} as {@code [start, end)} char ranges of the
 * excerpt), then one {@code {"nextCursor": ...}} line, {@code null} on the last page.
 */
final class SearchLines {

  /** Chars of context kept before an excerpt's first match in the table. */
  private static final int LEAD = 20;

  private final Output output;

  SearchLines(Output output) {
    this.output = output;
  }

  void print(SearchPage page) {
    if (output.json()) {
      for (SearchHit hit : page.hits()) {
        ObjectNode line = Records.event(hit.event(), Documents.VALUES);
        line.put("score", hit.score());
        line.put("excerpt", hit.excerpt());
        ArrayNode highlights = line.putArray("highlights");
        hit.highlights().forEach(range -> highlights.addObject().put("start", range.start()).put("end", range.end()));
        output.json(line);
      }
      ObjectNode end = Records.MAPPER.createObjectNode();
      end.put("nextCursor", page.nextCursor().orElse(null));
      output.json(end);
      return;
    }
    Table table = new Table("SESSION", "SEQ", "TYPE", "TIME", "EXCERPT");
    for (SearchHit hit : page.hits()) {
      table.row(hit.event().sessionId(), hit.event().seq(), hit.event().type(), hit.event().timestamp(),
          marked(hit));
    }
    output.table(table);
    page.nextCursor().ifPresent(next -> output.line("more: --after " + next));
  }

  /**
   * The excerpt with each match in brackets, from a word boundary at most {@value #LEAD} chars before the first
   * match ({@code ...} marks a cut), so that the table's cut at {@link Table#MAX_CELL_WIDTH} keeps the first match.
   */
  static String marked(SearchHit hit) {
    String excerpt = hit.excerpt();
    StringBuilder marked = new StringBuilder();
    int at = 0;
    for (SearchHit.Highlight range : hit.highlights()) {
      marked.append(excerpt, at, range.start()).append('[').append(excerpt, range.start(), range.end()).append(']');
      at = range.end();
    }
    marked.append(excerpt.substring(at));
    int first = hit.highlights().isEmpty() ? 0 : hit.highlights().get(0).start();
    if (first <= LEAD) {
      return marked.toString();
    }
    int start = marked.indexOf(" ", first - LEAD);
    return start < 0 || start >= first ? marked.toString() : "..." + marked.substring(start + 1);
  }
}
