package dev.sessionstore.conformance;

/** TODO group: to be written. */
public abstract class TruncationContract extends Contract {

  protected TruncationContract(SessionStoreConformance kit) {
    super(kit);
  }
}
