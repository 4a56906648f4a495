package dev.sessionstore.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * What is wrong with a file the tool reads or writes, in words about the path the user gave: the missing folder, a
 * folder where a file is expected, no permission. The JDK's exception names whatever file it touched (such as the
 * temporary file an export writes first), so its text is never shown as it is.
 */
final class FileProblem {

  private FileProblem() {
  }

  /** Why {@code path} could not be read or written, judged from the file system after {@code failure}. */
  static String of(IOException failure, Path path) {
    Path absolute = path.toAbsolutePath();
    Path folder = absolute.getParent();
    if (folder != null && !Files.isDirectory(folder)) {
      return Files.exists(folder) ? folder + " is not a folder" : "no such folder: " + folder;
    }
    if (Files.isDirectory(absolute)) {
      return "it is a folder";
    }
    if (failure instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (failure instanceof NoSuchFileException) {
      return "no such file";
    }
    if (failure instanceof FileSystemException system) {
      return system.getReason() == null ? "the file system refused it" : system.getReason();
    }
    return failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
  }
}
