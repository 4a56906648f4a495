package dev.sessionstore.demo;

import dev.sessionstore.Event;
import dev.sessionstore.Json;
import dev.sessionstore.Resolution;
import dev.sessionstore.Session;
import dev.sessionstore.ToolCall;
import java.io.PrintStream;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.TreeMap;

/**
 * Prints the demo's transcript as plain text: numbered steps, aligned {@code label  value} lines and event tables
 * with seq numbers and shortened payloads. Not thread-safe; one printer per run.
 */
final class TranscriptPrinter {

  private static final String INDENT = "    ";
  private static final int PAYLOAD_WIDTH = 58;
  private static final String EVENT_ROW = INDENT + "%4s  %-8s %-17s %-11s %-8s %s%n";

  private final PrintStream out;
  private int steps;

  TranscriptPrinter(PrintStream out) {
    this.out = out;
  }

  /** The banner printed once at the start. */
  void title(String text) {
    out.println(text);
    out.println("=".repeat(text.length()));
  }

  /** Starts the next numbered step. */
  void step(String title) {
    out.println();
    out.printf("%2d. %s%n", ++steps, title);
  }

  /** One aligned {@code label  value} line. */
  void field(String label, Object value) {
    out.printf(INDENT + "%-20s %s%n", label, value);
  }

  /** A line of explanation. */
  void note(String text) {
    out.println(INDENT + text);
  }

  void session(Session session) {
    field("id", session.id());
    field("name", orDash(session.name()));
    field("agent", orDash(session.agentId()));
    field("status", session.status());
    field("settings", session.settings());
    field("metadata", new TreeMap<>(session.metadata()));
  }

  /** A table of events: seq, id, type, agent, parent and the payload, shortened to one line. */
  void events(List<Event> events) {
    out.printf(EVENT_ROW, "seq", "id", "type", "agent", "parent", "payload");
    for (Event event : events) {
      out.printf(EVENT_ROW, event.seq(), event.id(), event.type(), orDash(event.agentId()), orDash(event.parentId()),
          shorten(event.payload()));
    }
  }

  void toolCall(ToolCall call) {
    field(call.id(), call.toolName() + " " + shorten(call.arguments()) + "  " + call.status()
        + (call.deadline() == null ? "" : "  deadline " + seconds(call.deadline())));
  }

  void resolution(String label, Resolution resolution) {
    if (resolution instanceof Resolution.Resolved resolved) {
      field(label, "Resolved -> " + resolved.call().status() + " " + shorten(resolved.call().result()));
    } else if (resolution instanceof Resolution.Stale stale) {
      field(label, "Stale (call is " + stale.current().map(call -> call.status().toString()).orElse("unknown")
          + "; this result was not stored)");
    }
  }

  private static String seconds(Instant instant) {
    return instant.truncatedTo(ChronoUnit.SECONDS).toString();
  }

  private static String shorten(Json json) {
    String text = json.text().replaceAll("\\s+", " ").strip();
    return text.length() <= PAYLOAD_WIDTH ? text : text.substring(0, PAYLOAD_WIDTH - 3) + "...";
  }

  private static String orDash(String value) {
    return value == null ? "-" : value;
  }
}
