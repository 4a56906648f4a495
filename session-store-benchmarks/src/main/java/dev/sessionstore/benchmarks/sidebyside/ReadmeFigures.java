package dev.sessionstore.benchmarks.sidebyside;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The figures the README quotes: the Java 17 rows (the oldest Java the library runs on, the one most users run) of a
 * few headline measures, drawn from the {@link Publication} like the page, so the README and the page never disagree.
 * They replace what stands between the README's {@value #START} and {@value #END} lines; a README without them (a run
 * into another folder) is left alone.
 */
final class ReadmeFigures {

  static final String START = "<!-- figures:start (written by the benchmark harness from docs/benchmarks.json) -->";
  static final String END = "<!-- figures:end -->";
  /** The Java whose rows the README quotes. */
  static final int JAVA = 17;

  /** The quoted rows, in order: a measure's key and the index of the row among its rows on {@link #JAVA}. */
  private static final List<Headline> HEADLINES = List.of(
      new Headline("SingleAppend", 0),
      new Headline("SingleAppend", 1),
      new Headline("BatchSweep", 0),
      new Headline("SqliteAppends", 0),
      new Headline("InMemoryAppend", 0),
      new Headline("LongSessionReads", 0),
      new Headline("ForkLongSession", 0),
      new Headline("SearchAtScale", 0),
      new Headline("SpringChatMemory", 0),
      new Headline("SpringAiTurn", 1),
      new Headline("LangChain4jChatMemory", 0),
      new Headline("LangChain4jChatMemory", 3),
      new Headline("SpringAiSessionAppend", 0),
      new Headline("AdkAppendsInMemory", 0));

  private ReadmeFigures() {
  }

  /**
   * Rewrites the block between the markers of {@code readme} from {@code publication}; returns whether the file had
   * the markers (and was rewritten).
   */
  static boolean write(Path readme, Publication publication) throws IOException {
    if (!Files.exists(readme)) {
      return false;
    }
    List<String> lines = Files.readAllLines(readme, StandardCharsets.UTF_8);
    int start = lines.indexOf(START);
    int end = lines.indexOf(END);
    if (start < 0 || end < start) {
      return false;
    }
    List<String> written = new ArrayList<>(lines.subList(0, start + 1));
    written.addAll(table(publication));
    written.addAll(lines.subList(end, lines.size()));
    Files.write(readme, written, StandardCharsets.UTF_8);
    return true;
  }

  /** The quoted table: each headline row published on {@link #JAVA}, in {@link #HEADLINES} order. */
  static List<String> table(Publication publication) {
    List<String> table = new ArrayList<>();
    table.add("| measured on Java " + JAVA + " | ratio | target | met |");
    table.add("|---|--:|---|---|");
    for (Headline headline : HEADLINES) {
      List<Publication.PublishedRow> rows = publication.rows().stream()
          .filter(row -> row.measure().equals(headline.measure()) && row.java() == JAVA).toList();
      if (headline.index() < rows.size()) {
        Row row = rows.get(headline.index()).row();
        table.add("| " + String.join(" | ", Report.cell(row.measure()), Report.cell(row.ratio()),
            Report.cell(row.target()), row.met() ? "yes" : "no") + " |");
      }
    }
    return table;
  }

  /** The {@code index}-th row of measure {@code measure} on {@link #JAVA}. */
  private record Headline(String measure, int index) {
  }
}
