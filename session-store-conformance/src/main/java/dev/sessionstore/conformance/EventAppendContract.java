package dev.sessionstore.conformance;

/** TODO group: to be written. */
public abstract class EventAppendContract extends Contract {

  protected EventAppendContract(SessionStoreConformance kit) {
    super(kit);
  }
}
