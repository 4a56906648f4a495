package dev.sessionstore.conformance;

/** TODO group: to be written. */
public abstract class EventReadContract extends Contract {

  protected EventReadContract(SessionStoreConformance kit) {
    super(kit);
  }
}
