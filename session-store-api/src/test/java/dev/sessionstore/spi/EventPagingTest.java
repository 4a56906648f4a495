package dev.sessionstore.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sessionstore.Event;
import dev.sessionstore.EventPage;
import dev.sessionstore.EventQuery;
import dev.sessionstore.Json;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class EventPagingTest {

  private static List<Event> events(long... seqs) {
    return LongStream.of(seqs).mapToObj(seq -> new Event("s", seq, "e-" + seq, "message", null, null, null,
        Json.emptyObject(), Instant.EPOCH)).toList();
  }

  private static List<Long> seqs(EventPage page) {
    return page.items().stream().map(Event::seq).toList();
  }

  @Test
  void oldestFirstWithOneRowBeyondTheLimitContinuesAfterItsNewestItem() {
    EventQuery query = EventQuery.all().first(3);

    EventPage page = EventPaging.page(events(4, 5, 6, 7), query);

    assertThat(EventPaging.fetchesNewestFirst(query)).isFalse();
    assertThat(EventPaging.fetchLimit(query)).isEqualTo(OptionalLong.of(4));
    assertThat(seqs(page)).containsExactly(4L, 5L, 6L);
    assertThat(page.nextCursor()).isEqualTo(OptionalLong.of(6));
  }

  @Test
  void tailIsFetchedNewestFirstAndReturnedOldestFirstWithItsOldestItemAsCursor() {
    EventQuery query = EventQuery.all().last(2);

    EventPage page = EventPaging.page(events(9, 8, 7), query);

    assertThat(EventPaging.fetchesNewestFirst(query)).isTrue();
    assertThat(seqs(page)).containsExactly(8L, 9L);
    assertThat(page.nextCursor()).isEqualTo(OptionalLong.of(8));
  }

  @Test
  void newestFirstKeepsFetchOrder() {
    EventPage page = EventPaging.page(events(9, 8, 7), EventQuery.all().newestFirst().limit(2));

    assertThat(seqs(page)).containsExactly(9L, 8L);
    assertThat(page.nextCursor()).isEqualTo(OptionalLong.of(8));
  }

  @Test
  void aPageWithNothingBeyondItsLimitHasNoCursor() {
    assertThat(EventPaging.page(events(2, 1), EventQuery.all().last(2)).nextCursor()).isEmpty();
    assertThat(EventPaging.page(events(1, 2), EventQuery.all()).nextCursor()).isEmpty();
    assertThat(EventPaging.fetchLimit(EventQuery.all())).isEmpty();
  }

  @Test
  void theLargestLimitFetchesOneMoreWithoutOverflow() {
    assertThat(EventPaging.fetchLimit(EventQuery.all().first(Integer.MAX_VALUE)))
        .isEqualTo(OptionalLong.of(Integer.MAX_VALUE + 1L));
  }
}
