package dev.sessionstore.conformance;

/** TODO group: to be written. */
public abstract class ForkContract extends Contract {

  protected ForkContract(SessionStoreConformance kit) {
    super(kit);
  }
}
