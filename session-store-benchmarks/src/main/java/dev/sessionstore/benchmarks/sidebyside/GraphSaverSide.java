package dev.sessionstore.benchmarks.sidebyside;

import java.util.List;

/**
 * One side of a {@link GraphSteps} measure: a graph runtime's checkpoint saver, driven through the runtime's own SPI
 * as the runtime drives it between two nodes of a run. Safe for calls on different graph threads at once.
 */
interface GraphSaverSide {

  /**
   * One graph step on {@code thread}: gets the thread's latest checkpoint (none on a new thread), then puts its
   * successor, a new checkpoint with a fresh id and the measure's state. Returns the id put.
   */
  String step(String thread) throws Exception;

  /**
   * The ids of the checkpoints of {@code thread}, newest first, as a new instance of the saver on the same database
   * lists them (what a restarted process would resume from); never from what this instance keeps in memory.
   */
  List<String> reread(String thread) throws Exception;

  /** The size, in bytes, of one checkpoint's state as the side's state serializer writes it. */
  int stateBytes() throws Exception;
}
