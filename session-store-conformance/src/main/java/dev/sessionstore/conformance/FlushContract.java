package dev.sessionstore.conformance;

/** TODO group: to be written. */
public abstract class FlushContract extends Contract {

  protected FlushContract(SessionStoreConformance kit) {
    super(kit);
  }
}
