package dev.sessionstore.conformance;

/** TODO group: to be written. */
public abstract class WaitingReadContract extends Contract {

  protected WaitingReadContract(SessionStoreConformance kit) {
    super(kit);
  }
}
