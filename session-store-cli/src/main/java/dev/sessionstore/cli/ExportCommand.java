package dev.sessionstore.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "export")
final class ExportCommand implements Callable<Integer> {

  @Override
  public Integer call() {
    throw new UnsupportedOperationException("Export");
  }
}
