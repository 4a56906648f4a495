package dev.sessionstore;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class UnsupportedCapabilityExceptionTest {

  @Test
  void namesTheCapabilityAndSaysWhyWhenGivenAReason() {
    UnsupportedCapabilityException plain = new UnsupportedCapabilityException(Capability.SEARCH);
    UnsupportedCapabilityException reasoned = new UnsupportedCapabilityException(Capability.SEARCH,
        "payloads are sealed");

    assertThat(plain.capability()).isEqualTo(Capability.SEARCH);
    assertThat(plain.getMessage()).isEqualTo("this store does not support SEARCH");
    assertThat(reasoned.capability()).isEqualTo(Capability.SEARCH);
    assertThat(reasoned.getMessage()).isEqualTo("this store does not support SEARCH: payloads are sealed");
  }
}
