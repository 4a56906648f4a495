package dev.sessionstore.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sessionstore.Archives;
import dev.sessionstore.Capability;
import dev.sessionstore.SessionPage;
import dev.sessionstore.SessionQuery;
import dev.sessionstore.SessionStore;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code export}: every session (or the named ones) with everything it owns, then the global checkpoints, as an
 * {@link ExportFormat} file, each session read in one consistent view ({@link Archives#export}). A file is written
 * beside its target and moved into place when complete, so a failed export leaves no partial file.
 */
@Command(name = "export", description = "Export sessions as JSON Lines (to a file or standard output).")
final class ExportCommand implements Callable<Integer> {

  private static final int PAGE = 500;

  @Mixin
  private HelpOption help;

  @ParentCommand
  private SessionStoreCli cli;

  @Option(names = {"-o", "--output"}, paramLabel = "<file>", description = "The file to write (default: standard output).")
  private Path file;

  @Option(names = "--session", paramLabel = "<id>",
      description = "Export only this session (repeatable); global checkpoints are then left out.")
  private List<String> only = new ArrayList<>();

  @Override
  public Integer call() throws IOException {
    try (OpenedStore opened = cli.open(StoreOpener.Schema.EXISTING)) {
      SessionStore store = opened.store();
      if (!store.supports(Capability.ARCHIVES)) {
        throw new CliFailure(ExitCode.FAILURE, opened.target().describe() + " cannot export (no archives)");
      }
      List<String> ids = only.isEmpty() ? allSessionIds(store) : only;
      for (String id : only) {
        if (store.sessions().find(id).isEmpty()) {
          throw new CliFailure(ExitCode.UNKNOWN_SESSION, "no session with id \"" + id + "\"");
        }
      }
      ExportWriter written = file == null ? writeToStandardOutput(store, ids) : writeToFile(store, ids);
      if (file != null) {
        report(written);
      }
    }
    return ExitCode.OK.code();
  }

  private ExportWriter writeToStandardOutput(SessionStore store, List<String> ids) {
    Writer out = new BufferedWriter(new OutputStreamWriter(cli.output().stream(), StandardCharsets.UTF_8));
    return write(store, ids, out);
  }

  private ExportWriter writeToFile(SessionStore store, List<String> ids) throws IOException {
    Path target = file.toAbsolutePath();
    Path partial;
    try {
      partial = Files.createTempFile(target.getParent(), target.getFileName().toString(), ".partial");
    } catch (IOException e) {
      throw cannotWrite(e, target);
    }
    try {
      ExportWriter written;
      try (Writer out = Files.newBufferedWriter(partial, StandardCharsets.UTF_8)) {
        written = write(store, ids, out);
      } catch (UncheckedIOException e) {
        throw cannotWrite(e.getCause(), target);
      }
      Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return written;
    } catch (IOException e) {
      throw cannotWrite(e, target);
    } finally {
      Files.deleteIfExists(partial);
    }
  }

  /** The failure to write the target, told by the target's path (never the temporary file's). */
  private CliFailure cannotWrite(IOException failure, Path target) {
    return new CliFailure(ExitCode.FILE_ERROR, "cannot write " + file + ": " + FileProblem.of(failure, target),
        failure);
  }

  /** Writes the file; returns the writer, which counts what it wrote. */
  private ExportWriter write(SessionStore store, List<String> ids, Writer out) {
    ExportWriter writer = new ExportWriter(out);
    Progress progress = new Progress(cli.err(), cli.interactive(), "exporting", ids.size());
    writer.header();
    int done = 0;
    for (String id : ids) {
      store.archives().export(id).ifPresent(writer::session);
      progress.update(++done, counts(done, ids.size(), writer));
    }
    if (only.isEmpty()) {
      store.archives().globalCheckpoints().forEach(writer::globalCheckpoint);
    }
    writer.trailer();
    progress.finish(done, counts(done, ids.size(), writer));
    return writer;
  }

  private static String counts(int done, int total, ExportWriter writer) {
    return done + "/" + total + " sessions, " + writer.records() + " records";
  }

  private void report(ExportWriter written) {
    Output output = cli.output();
    if (output.json()) {
      ObjectNode result = Records.MAPPER.createObjectNode()
          .put("file", file.toString())
          .put("sessions", written.sessions())
          .put("globalCheckpoints", written.globalCheckpoints());
      output.json(result);
    } else {
      output.line("exported " + written.sessions() + " sessions and " + written.globalCheckpoints() + " global checkpoints to " + file);
    }
  }

  private static List<String> allSessionIds(SessionStore store) {
    List<String> ids = new ArrayList<>();
    SessionQuery query = SessionQuery.all().limit(PAGE);
    while (true) {
      SessionPage page = store.sessions().list(query);
      page.items().forEach(session -> ids.add(session.id()));
      if (page.nextCursor().isEmpty()) {
        return ids;
      }
      query = SessionQuery.all().limit(PAGE).after(page.nextCursor().get());
    }
  }
}
