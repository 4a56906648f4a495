package dev.sessionstore.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "stats")
final class StatsCommand implements Callable<Integer> {

  @Override
  public Integer call() {
    throw new UnsupportedOperationException("Stats");
  }
}
