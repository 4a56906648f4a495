package dev.sessionstore.reliability;

import java.util.function.BooleanSupplier;

/** A flag worker threads poll to learn when to stop. */
final class Running implements BooleanSupplier {

  private volatile boolean running = true;

  @Override
  public boolean getAsBoolean() {
    return running;
  }

  void stop() {
    running = false;
  }
}
