package dev.sessionstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** Result records refuse missing members with an {@link InvalidArgumentException} naming the member, never an NPE. */
class ResultRecordsTest {

  private static void assertField(ThrowingCallable call, String field) {
    assertThatThrownBy(call).isInstanceOfSatisfying(InvalidArgumentException.class,
        e -> assertThat(e.field()).isEqualTo(field));
  }

  @Test
  void pagesRevivalsAndChaptersNameTheMissingMember() {
    assertField(() -> new EventPage(null, OptionalLong.empty()), "items");
    assertField(() -> new EventPage(List.of(), null), "nextCursor");
    assertField(() -> new SessionPage(null, Optional.empty()), "items");
    assertField(() -> new SessionPage(List.of(), null), "nextCursor");
    assertField(() -> new Revival(null, List.of(), 0), "summary");
    assertField(() -> new Revival(Optional.empty(), null, 0), "events");
    assertField(() -> new Revival(Optional.empty(), List.of(), -1), "lastSeq");
    assertField(() -> new Chapter(null, Optional.empty(), List.of()), "summary");
  }
}
