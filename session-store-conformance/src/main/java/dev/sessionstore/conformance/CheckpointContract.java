package dev.sessionstore.conformance;

/** TODO group: to be written. */
public abstract class CheckpointContract extends Contract {

  protected CheckpointContract(SessionStoreConformance kit) {
    super(kit);
  }
}
