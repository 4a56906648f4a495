package dev.sessionstore.cli;

import static dev.sessionstore.cli.Documents.EXACT_TEXT;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.SessionArchive;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;

/** Writes an export file in {@link ExportFormat}: the header, session blocks, global checkpoints, the trailer. */
final class ExportWriter {

  private final Writer out;
  private int sessions;
  private long records;
  private int globalCheckpoints;

  ExportWriter(Writer out) {
    this.out = out;
  }

  void header() {
    line(ExportFormat.HEADER, Records.MAPPER.createObjectNode()
        .put("format", ExportFormat.FORMAT)
        .put("version", ExportFormat.VERSION));
  }

  /** One session's block, its records in the archive's canonical order. */
  void session(SessionArchive archive) {
    ObjectNode session = Records.session(archive.session(), EXACT_TEXT);
    if (archive.isCut()) {
      session.put(ExportFormat.CUT_SEQ, archive.cutSeq());
    }
    line(ExportFormat.SESSION, session);
    archive.events().forEach(event -> line(ExportFormat.EVENT, Records.event(event, EXACT_TEXT)));
    archive.runs().forEach(run -> line(ExportFormat.RUN, Records.run(run, EXACT_TEXT)));
    archive.toolCalls().forEach(call -> line(ExportFormat.TOOL_CALL, Records.toolCall(call, EXACT_TEXT)));
    archive.summaries().forEach(summary -> line(ExportFormat.SUMMARY, Records.summary(summary, EXACT_TEXT)));
    archive.checkpoints().forEach(checkpoint -> line(ExportFormat.CHECKPOINT, Records.checkpoint(checkpoint)));
    archive.modelCalls().forEach(call -> line(ExportFormat.MODEL_CALL, Records.modelCall(call, EXACT_TEXT)));
    int records = ExportFormat.records(archive);
    line(ExportFormat.END, Records.MAPPER.createObjectNode()
        .put("sessionId", archive.sessionId())
        .put("records", records));
    sessions++;
    this.records += records;
  }

  void globalCheckpoint(Checkpoint checkpoint) {
    line(ExportFormat.GLOBAL_CHECKPOINT, Records.checkpoint(checkpoint));
    globalCheckpoints++;
  }

  /** The last line; then flushes. */
  void trailer() {
    line(ExportFormat.TRAILER, Records.MAPPER.createObjectNode()
        .put("sessions", sessions)
        .put("globalCheckpoints", globalCheckpoints));
    try {
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  int sessions() {
    return sessions;
  }

  /** The records of the session blocks written so far. */
  long records() {
    return records;
  }

  int globalCheckpoints() {
    return globalCheckpoints;
  }

  private void line(String kind, ObjectNode fields) {
    ObjectNode line = Records.MAPPER.createObjectNode().put(ExportFormat.KIND, kind);
    line.setAll(fields);
    try {
      out.write(Records.MAPPER.writeValueAsString(line));
      out.write('\n');
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree cannot be written", e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
