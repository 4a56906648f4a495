package dev.sessionstore.cli;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.sessionstore.Checkpoint;
import dev.sessionstore.Event;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.ModelCall;
import dev.sessionstore.Run;
import dev.sessionstore.Session;
import dev.sessionstore.SessionArchive;
import dev.sessionstore.Summary;
import dev.sessionstore.ToolCall;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads an export file in {@link ExportFormat}, one item at a time: a whole session block (checked to be complete
 * and of one session before it is returned), a global checkpoint, then the trailer. A line that is not valid JSON,
 * misses or mistypes a field, is out of place, or belongs to another session fails with a {@link CliFailure} of
 * {@link ExitCode#CORRUPT_FILE} naming its line number, before anything of its session is returned; so does a file
 * cut off inside a block or before its trailer.
 */
final class ExportReader {

  /** One item of the file. */
  sealed interface Item permits SessionBlock, GlobalCheckpoint, Trailer {
  }

  /**
   * A complete session block.
   *
   * @param firstLine the line of its {@code session} record
   * @param lastLine  the line of its {@code end} record
   */
  record SessionBlock(SessionArchive archive, int firstLine, int lastLine, Map<Object, Integer> recordLines)
      implements Item {

    private static final Pattern MEMBER = Pattern.compile("^archive\\.(\\w+)\\[(\\d+)]");

    /** The line holding the archive member an import error names ({@code archive.events[3].seq}), if known. */
    int lineOf(String field) {
      Matcher member = MEMBER.matcher(field);
      if (member.find()) {
        List<?> records = switch (member.group(1)) {
          case "events" -> archive.events();
          case "runs" -> archive.runs();
          case "toolCalls" -> archive.toolCalls();
          case "summaries" -> archive.summaries();
          case "checkpoints" -> archive.checkpoints();
          case "modelCalls" -> archive.modelCalls();
          default -> List.of();
        };
        int index = Integer.parseInt(member.group(2));
        if (index < records.size()) {
          return recordLines.getOrDefault(records.get(index), firstLine);
        }
      }
      return firstLine;
    }
  }

  record GlobalCheckpoint(Checkpoint checkpoint, int line) implements Item {
  }

  /** The trailer: the file is complete. */
  record Trailer(int line) implements Item {
  }

  private static final ObjectReader LINE_READER = Records.MAPPER.reader()
      .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .with(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  private final BufferedReader in;
  private final String source;
  private int lineNumber;
  private boolean headerRead;
  private int sessions;
  private int globalCheckpoints;

  /** @param source the file's name for messages */
  ExportReader(BufferedReader in, String source) {
    this.in = in;
    this.source = source;
  }

  /** The next item; {@link Trailer} is the last one. */
  Item next() {
    if (!headerRead) {
      readHeader();
    }
    String kind;
    LineFields line;
    try {
      line = nextLine();
      if (line == null) {
        throw corrupt(lineNumber + 1, "the file ends without its trailer line: it was cut off", null);
      }
      kind = line.string(ExportFormat.KIND);
    } catch (LineFields.Malformed e) {
      throw corrupt(lineNumber, e.getMessage(), null);
    }
    return switch (kind) {
      case ExportFormat.SESSION -> sessionBlock(line);
      case ExportFormat.GLOBAL_CHECKPOINT -> globalCheckpoint(line);
      case ExportFormat.TRAILER -> trailer(line);
      default -> throw corrupt(lineNumber, "a \"" + kind + "\" line outside a session block", null);
    };
  }

  private void readHeader() {
    headerRead = true;
    try {
      LineFields header = nextLine();
      if (header == null) {
        throw corrupt(1, "the file is empty: not a session-store export", null);
      }
      if (!ExportFormat.HEADER.equals(header.optionalString(ExportFormat.KIND))
          || !ExportFormat.FORMAT.equals(header.optionalString("format"))) {
        throw corrupt(lineNumber, "not a session-store export (no " + ExportFormat.FORMAT + " header)", null);
      }
      long version = header.number("version");
      if (version != ExportFormat.VERSION) {
        throw corrupt(lineNumber, "format version " + version + " is not the version this tool reads ("
            + ExportFormat.VERSION + ")", null);
      }
    } catch (LineFields.Malformed e) {
      throw corrupt(lineNumber, e.getMessage(), null);
    }
  }

  private SessionBlock sessionBlock(LineFields first) {
    int firstLine = lineNumber;
    Session session = parse(() -> Records.session(first), ExportFormat.SESSION, null);
    long cutSeq = parse(() -> first.optionalNumber(ExportFormat.CUT_SEQ, 0), ExportFormat.SESSION, null);
    String id = session.id();
    Map<Object, Integer> recordLines = new IdentityHashMap<>();
    List<Event> events = new ArrayList<>();
    List<Run> runs = new ArrayList<>();
    List<ToolCall> toolCalls = new ArrayList<>();
    List<Summary> summaries = new ArrayList<>();
    List<Checkpoint> checkpoints = new ArrayList<>();
    List<ModelCall> modelCalls = new ArrayList<>();
    while (true) {
      LineFields line;
      String kind;
      try {
        line = nextLine();
        if (line == null) {
          throw corrupt(lineNumber + 1, "the file ends inside the block of session \"" + id + "\": it was cut off",
              id);
        }
        kind = line.string(ExportFormat.KIND);
      } catch (LineFields.Malformed e) {
        throw corrupt(lineNumber, e.getMessage(), id);
      }
      Object record = switch (kind) {
        case ExportFormat.EVENT -> add(events, parse(() -> Records.event(line), kind, id), id, Event::sessionId);
        case ExportFormat.RUN -> add(runs, parse(() -> Records.run(line), kind, id), id, Run::sessionId);
        case ExportFormat.TOOL_CALL ->
            add(toolCalls, parse(() -> Records.toolCall(line), kind, id), id, ToolCall::sessionId);
        case ExportFormat.SUMMARY ->
            add(summaries, parse(() -> Records.summary(line), kind, id), id, Summary::sessionId);
        case ExportFormat.CHECKPOINT -> add(checkpoints, parse(() -> Records.checkpoint(line), kind, id), id,
            checkpoint -> checkpoint.key().sessionId());
        case ExportFormat.MODEL_CALL ->
            add(modelCalls, parse(() -> Records.modelCall(line), kind, id), id, ModelCall::sessionId);
        case ExportFormat.END -> null;
        default -> throw corrupt(lineNumber, "a \"" + kind + "\" line inside the block of session \"" + id + "\"",
            id);
      };
      if (record == null) {
        checkEnd(line, id, recordLines.size());
        sessions++;
        SessionArchive archive = new SessionArchive(session, events, runs, toolCalls, summaries, checkpoints,
            modelCalls, cutSeq);
        return new SessionBlock(archive, firstLine, lineNumber, recordLines);
      }
      recordLines.put(record, lineNumber);
    }
  }

  private void checkEnd(LineFields end, String id, int records) {
    try {
      if (!id.equals(end.string("sessionId"))) {
        throw corrupt(lineNumber, "the end line names session \"" + end.string("sessionId") + "\", not \"" + id
            + "\"", id);
      }
      if (end.number("records") != records) {
        throw corrupt(lineNumber, "the block of session \"" + id + "\" has " + records + " records, its end line"
            + " says " + end.number("records"), id);
      }
    } catch (LineFields.Malformed e) {
      throw corrupt(lineNumber, "end: " + e.getMessage(), id);
    }
  }

  private GlobalCheckpoint globalCheckpoint(LineFields line) {
    Checkpoint checkpoint = parse(() -> Records.checkpoint(line), ExportFormat.GLOBAL_CHECKPOINT, null);
    if (checkpoint.key().isSessionScoped()) {
      throw corrupt(lineNumber, "a global checkpoint with a sessionId", null);
    }
    globalCheckpoints++;
    return new GlobalCheckpoint(checkpoint, lineNumber);
  }

  private Trailer trailer(LineFields line) {
    int trailerLine = lineNumber;
    try {
      if (line.number("sessions") != sessions || line.number("globalCheckpoints") != globalCheckpoints) {
        throw corrupt(trailerLine, "the trailer counts " + line.number("sessions") + " sessions and "
            + line.number("globalCheckpoints") + " global checkpoints, the file holds " + sessions + " and "
            + globalCheckpoints, null);
      }
    } catch (LineFields.Malformed e) {
      throw corrupt(trailerLine, "trailer: " + e.getMessage(), null);
    }
    if (readLine() != null) {
      throw corrupt(lineNumber, "a line after the trailer", null);
    }
    return new Trailer(trailerLine);
  }

  private <T> T add(List<T> records, T record, String id, Function<T, String> owner) {
    String recordOwner = owner.apply(record);
    if (!id.equals(recordOwner)) {
      throw corrupt(lineNumber, "a record of session \"" + recordOwner + "\" inside the block of session \"" + id
          + "\"", id);
    }
    records.add(record);
    return record;
  }

  private <T> T parse(Supplier<T> reading, String kind, String sessionId) {
    try {
      return reading.get();
    } catch (LineFields.Malformed | InvalidArgumentException e) {
      throw corrupt(lineNumber, kind + ": " + e.getMessage(), sessionId);
    }
  }

  /** The next line as fields, or {@code null} at the end of the file. */
  private LineFields nextLine() {
    String text = readLine();
    if (text == null) {
      return null;
    }
    try {
      JsonNode node = LINE_READER.readTree(text);
      if (node == null || node.isMissingNode()) {
        throw new LineFields.Malformed("an empty line");
      }
      return new LineFields(node);
    } catch (JsonProcessingException e) {
      throw new LineFields.Malformed("not valid JSON: " + e.getOriginalMessage());
    }
  }

  private String readLine() {
    try {
      String text = in.readLine();
      if (text != null) {
        lineNumber++;
      }
      return text;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private CliFailure corrupt(int line, String problem, String sessionId) {
    return new CliFailure(ExitCode.CORRUPT_FILE, source + " line " + line + ": " + problem
        + (sessionId == null ? "" : "; nothing of session \"" + sessionId + "\" was imported"));
  }
}
