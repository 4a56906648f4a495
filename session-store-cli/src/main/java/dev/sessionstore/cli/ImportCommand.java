package dev.sessionstore.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sessionstore.Archives;
import dev.sessionstore.Capability;
import dev.sessionstore.ImportOutcome;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.SessionStore;
import java.io.BufferedReader;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code import}: stores the sessions of an {@link ExportFormat} file, each atomically and idempotently
 * ({@link Archives#importSession}): importing a file twice changes nothing the second time. Reading stops at the
 * first corrupt line, reported with its number ({@link ExitCode#CORRUPT_FILE}); the sessions before it are imported,
 * nothing of the session holding it nor of any after it. A session the store holds with other content, or whose name
 * another session has, is left as it is and reported ({@link ExitCode#CONFLICT}) after the others are imported.
 */
@Command(name = "import", description = "Import sessions from a JSON Lines export, atomically per session.")
final class ImportCommand implements Callable<Integer> {

  @Mixin
  private HelpOption help;

  @ParentCommand
  private SessionStoreCli cli;

  @Parameters(paramLabel = "<file>", description = "The export file to read.")
  private Path file;

  @Override
  public Integer call() throws IOException {
    long size;
    InputStream raw;
    if (Files.isDirectory(file)) {
      throw new CliFailure(ExitCode.FILE_ERROR, "cannot read " + file + ": it is a folder");
    }
    try {
      size = Files.size(file);
      raw = Files.newInputStream(file);
    } catch (IOException e) {
      throw new CliFailure(ExitCode.FILE_ERROR, "cannot read " + file + ": " + FileProblem.of(e, file), e);
    }
    Map<ImportOutcome, Integer> sessions = new EnumMap<>(ImportOutcome.class);
    Map<ImportOutcome, Integer> checkpoints = new EnumMap<>(ImportOutcome.class);
    List<String> conflicts = new ArrayList<>();
    try (CountingStream counted = new CountingStream(raw);
         BufferedReader in = new BufferedReader(new InputStreamReader(counted, StandardCharsets.UTF_8.newDecoder()
             .onMalformedInput(CodingErrorAction.REPORT)
             .onUnmappableCharacter(CodingErrorAction.REPORT)));
         OpenedStore opened = cli.open(StoreOpener.Schema.CREATE_OR_UPGRADE)) {
      SessionStore store = opened.store();
      if (!store.supports(Capability.ARCHIVES)) {
        throw new CliFailure(ExitCode.FAILURE, opened.target().describe() + " cannot import (no archives)");
      }
      Progress progress = new Progress(cli.err(), cli.interactive(), "importing", size);
      long records = 0;
      ExportReader reader = new ExportReader(in, file.toString());
      ExportReader.Item item;
      do {
        item = read(reader);
        if (item instanceof ExportReader.SessionBlock block) {
          ImportOutcome outcome = importSession(store, block);
          records += ExportFormat.records(block.archive());
          sessions.merge(outcome, 1, Integer::sum);
          if (outcome == ImportOutcome.CONFLICT) {
            conflicts.add(block.archive().sessionId());
          }
        } else if (item instanceof ExportReader.GlobalCheckpoint global) {
          ImportOutcome outcome = store.archives().importGlobalCheckpoint(global.checkpoint());
          checkpoints.merge(outcome, 1, Integer::sum);
          if (outcome == ImportOutcome.CONFLICT) {
            conflicts.add("global checkpoint " + global.checkpoint().key().name());
          }
        }
        progress.update(counted.count(), counts(sessions, records));
      } while (!(item instanceof ExportReader.Trailer));
      progress.finish(counted.count(), counts(sessions, records));
    }
    report(sessions, checkpoints);
    if (!conflicts.isEmpty()) {
      throw new CliFailure(ExitCode.CONFLICT, conflicts.size() + " left as stored, because the store holds other"
          + " content under their id or name: " + String.join(", ", conflicts));
    }
    return ExitCode.OK.code();
  }

  /** The progress bar's words: the sessions and records read so far, whatever their outcome. */
  private static String counts(Map<ImportOutcome, Integer> sessions, long records) {
    int read = sessions.values().stream().mapToInt(Integer::intValue).sum();
    return read + " sessions, " + records + " records";
  }

  private ExportReader.Item read(ExportReader reader) {
    try {
      return reader.next();
    } catch (UncheckedIOException e) {
      throw new CliFailure(ExitCode.CORRUPT_FILE, "cannot read " + file + " (not UTF-8 text?): "
          + e.getCause().getMessage(), e);
    }
  }

  private ImportOutcome importSession(SessionStore store, ExportReader.SessionBlock block) {
    try {
      return store.archives().importSession(block.archive());
    } catch (InvalidArgumentException e) {
      throw new CliFailure(ExitCode.CORRUPT_FILE, file + " line " + block.lineOf(e.field()) + ": " + e.getMessage()
          + "; nothing of session \"" + block.archive().sessionId() + "\" was imported", e);
    }
  }

  private void report(Map<ImportOutcome, Integer> sessions, Map<ImportOutcome, Integer> checkpoints) {
    Output output = cli.output();
    if (output.json()) {
      ObjectNode result = Records.MAPPER.createObjectNode().put("file", file.toString());
      ObjectNode sessionCounts = result.putObject("sessions");
      ObjectNode checkpointCounts = result.putObject("globalCheckpoints");
      for (ImportOutcome outcome : ImportOutcome.values()) {
        sessionCounts.put(outcome.name().toLowerCase(Locale.ROOT), sessions.getOrDefault(outcome, 0));
        checkpointCounts.put(outcome.name().toLowerCase(Locale.ROOT),
            checkpoints.getOrDefault(outcome, 0));
      }
      output.json(result);
    } else {
      output.line("sessions: " + counts(sessions) + "; global checkpoints: " + counts(checkpoints));
    }
  }

  private static String counts(Map<ImportOutcome, Integer> outcomes) {
    return outcomes.getOrDefault(ImportOutcome.IMPORTED, 0) + " imported, "
        + outcomes.getOrDefault(ImportOutcome.UNCHANGED, 0) + " unchanged, "
        + outcomes.getOrDefault(ImportOutcome.CONFLICT, 0) + " conflicting";
  }

  /** Counts the bytes read through it: the progress bar's measure of the work done. */
  private static final class CountingStream extends FilterInputStream {

    private long count;

    CountingStream(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        count++;
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = super.read(buffer, offset, length);
      if (n > 0) {
        count += n;
      }
      return n;
    }

    long count() {
      return count;
    }
  }
}
