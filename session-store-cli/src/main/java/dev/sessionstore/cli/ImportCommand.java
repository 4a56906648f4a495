package dev.sessionstore.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "import")
final class ImportCommand implements Callable<Integer> {

  @Override
  public Integer call() {
    throw new UnsupportedOperationException("Import");
  }
}
