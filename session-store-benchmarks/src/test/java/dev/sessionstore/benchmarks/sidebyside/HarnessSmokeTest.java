package dev.sessionstore.benchmarks.sidebyside;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Runs every measure of the harness once, at the smoke scale, and checks that the page and the chart come out
 * complete and well-formed. Asserts nothing about the numbers: a build machine's timings mean nothing.
 *
 * <p>The database is {@link SmokeDatabase}'s.
 */
class HarnessSmokeTest {

  /** A table row: nine cells, the second this Java, the eighth yes or no, the last the run's date and commit. */
  static final Pattern ROW = Pattern.compile("\\| [^|]+ \\| " + Runtime.version().feature()
      + " \\| [^|]+ \\| .+ \\| .+ \\| [^|]+ \\| [^|]+ \\| (yes|no) \\| \\d{4}-\\d{2}-\\d{2} `[^`]+` \\|");
  private static final Pattern NUMBER = Pattern.compile("\\d");

  @TempDir
  Path out;

  @Test
  void everyMeasureRunsAndThePageAndChartAreWellFormed() throws Exception {
    SmokeDatabase.run("side-by-side smoke test", this::runAndCheck);
  }

  /** The rows of the page's table, below its header and separator, which must be there. */
  static List<String> tableRows(List<String> page) {
    int header = page.indexOf(Report.TABLE_HEADER);
    assertThat(header).as("the table header in %s", page).isNotNegative();
    int end = header + 2;
    while (end < page.size() && page.get(end).startsWith("|")) {
      end++;
    }
    return page.subList(header + 2, end);
  }

  private void runAndCheck(String url) throws Exception {
    Harness.run(new Bench(url, Scale.SMOKE), out, "smoke test");

    List<String> page = Files.readAllLines(out.resolve(Harness.PAGE), StandardCharsets.UTF_8);
    List<String> rows = tableRows(page);
    assertThat(rows).as("one row per measure of the set (two of the single append); the virtual-thread row on"
            + " Java 21+ only")
        .hasSize(42 + (VirtualThreadWaits.available() ? 1 : 0))
        .allSatisfy(row -> assertThat(row).matches(ROW).doesNotContain("n/a").containsPattern(NUMBER));
    assertThat(String.join("\n", page))
        .contains("![", "(" + Harness.CHART + ")", "## What each baseline does", "**Commit:**",
            "**Database:** PostgreSQL", "calls after")
        .contains(OperationsOverhead.OBSERVED_POSTGRES, OperationsOverhead.ENCRYPTED_READ)
        .contains("single-event append, own commit", "100-event atomic batch", "16 writers over 1,000 sessions",
            "8 writers on one session", "last 50 of a 2,000-event session", "revival read",
            "`JdbcChatMemoryRepository`", "fork of a 1,000-event session, PostgreSQL",
            "fork of a 1,000-event session, in-memory", "waiting read woken from another store instance",
            "in-memory single-event append", "SQLite single-event append, session of 100 events",
            "SQLite single-event append, session of 1,000 events",
            "SQLite 100-event atomic batch, session of 100 events",
            "SQLite 100-event atomic batch, session of 1,000 events",
            "one turn through `MessageWindowChatMemory` (window 20) at a history of 200 messages",
            "Spring AI turn at 80 messages, history kept", "Spring AI turn at 80 messages, both windows 80",
            "Spring AI bridge turn at 80 messages, lengths interleaved",
            "PostgreSQL single-event append at 1,000 events in the session",
            "SQLite single-event append at 1,000 events in the session",
            "In-memory single-event append at 1,000 events in the session");

    Document chart = parse(out.resolve(Harness.CHART));
    assertThat(chart.getDocumentElement().getLocalName()).isEqualTo("svg");
    NodeList lines = chart.getElementsByTagNameNS(Chart.SVG, "polyline");
    assertThat(lines.getLength()).as("a library line and a raw-twin line per panel").isEqualTo(14);
    for (int i = 0; i < lines.getLength(); i++) {
      Element line = (Element) lines.item(i);
      String[] points = line.getAttribute("points").split(" ");
      assertThat(points).as("points of %s", line.getAttribute("class")).hasSizeGreaterThanOrEqualTo(4)
          .allSatisfy(point -> assertThat(point).matches("\\d+\\.\\d{2},\\d+\\.\\d{2}"));
    }
  }

  private static Document parse(Path file) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
    try {
      return factory.newDocumentBuilder().parse(file.toFile());
    } catch (IOException e) {
      throw new IOException("the chart is not readable XML: " + file, e);
    }
  }
}
