package dev.sessionstore.conformance;

/** TODO group: to be written. */
public abstract class PayloadContract extends Contract {

  protected PayloadContract(SessionStoreConformance kit) {
    super(kit);
  }
}
