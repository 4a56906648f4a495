package dev.sessionstore.spi;

import dev.sessionstore.Event;
import dev.sessionstore.SearchHit;
import dev.sessionstore.SearchPage;
import dev.sessionstore.SearchQuery;
import dev.sessionstore.SearchTerm;
import dev.sessionstore.SearchWords;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The page of a search, made from the events an adapter's index selected: the one place that decides which of them
 * match the query's terms and filters, their scores, excerpts and order, and where a cursor continues, so that every
 * adapter answers a query alike (guarantee 21). An adapter reads through its index every event of the query's scope
 * that holds each of {@link SearchText#indexWords} (more is allowed, never fewer), as the sessions in scope show them
 * (a fork's shared events with the fork's session id), and hands them here.
 *
 * <p>The work is that of the events handed in: they are read once, matched, scored and sorted. Stateless and
 * thread-safe.
 */
public final class SearchResults {

  /** The order of {@link SearchPage}: score descending, newest first, session id, seq descending. */
  private static final Comparator<Ranked> ORDER = Comparator.comparingInt(Ranked::score).reversed()
      .thenComparing(Ranked::timestamp, Comparator.reverseOrder())
      .thenComparing(Ranked::sessionId, IdOrder.BY_CODE_POINT)
      .thenComparing(Ranked::seq, Comparator.reverseOrder());

  private SearchResults() {
  }

  /**
   * The page of {@code query} among {@code candidates}: those that match every term and pass the event filters,
   * best first, after the query's cursor, at most its limit.
   *
   * @throws dev.sessionstore.InvalidArgumentException naming {@code cursor} if the query's cursor is not one made for
   *                                                   a query with its terms, scope and filters
   */
  public static SearchPage page(SearchQuery query, Iterable<Event> candidates) {
    Arguments.requireNonNull("query", query);
    Arguments.requireNonNull("candidates", candidates);
    Ranked cursor = query.cursor() == null ? null : position(SearchCursor.of(query));
    List<Ranked> ranked = new ArrayList<>();
    for (Event event : candidates) {
      if (!query.admits(event)) {
        continue;
      }
      Optional<SearchHit> hit = hit(query.terms(), event);
      if (hit.isPresent()) {
        Ranked entry = new Ranked(hit.get());
        if (cursor == null || ORDER.compare(entry, cursor) > 0) {
          ranked.add(entry);
        }
      }
    }
    ranked.sort(ORDER);
    List<SearchHit> hits = ranked.stream().limit(query.limit()).map(Ranked::hit).toList();
    Optional<String> next = Optional.empty();
    if (ranked.size() > query.limit()) {
      SearchHit last = hits.get(hits.size() - 1);
      next = Optional.of(SearchCursor.after(query, last.score(), last.event().timestamp(), last.event().sessionId(),
          last.event().seq()));
    }
    return new SearchPage(hits, next);
  }

  /**
   * The hit {@code event} makes for {@code terms}, or empty when it does not match every term.
   */
  public static Optional<SearchHit> hit(List<SearchTerm> terms, Event event) {
    List<String> values = SearchText.values(event.payload());
    List<List<Word>> words = new ArrayList<>(values.size());
    for (String value : values) {
      List<Word> read = new ArrayList<>();
      SearchWords.scan(value, (form, start, end) -> read.add(new Word(form, start, end)));
      words.add(read);
    }
    int score = 0;
    for (SearchTerm term : terms) {
      int count = 0;
      for (List<Word> value : words) {
        count += matches(term, value, null);
      }
      if (count == 0) {
        return Optional.empty();
      }
      score += count;
    }
    for (int i = 0; i < values.size(); i++) {
      List<SearchHit.Highlight> ranges = new ArrayList<>();
      for (SearchTerm term : terms) {
        matches(term, words.get(i), ranges);
      }
      if (!ranges.isEmpty()) {
        return Optional.of(Excerpts.hit(event, score, values.get(i), ranges));
      }
    }
    throw new IllegalStateException("a matching event has a value holding a match");
  }

  /** How often {@code term} occurs in {@code value}'s words; adds each occurrence's char range to {@code ranges}. */
  private static int matches(SearchTerm term, List<Word> value, List<SearchHit.Highlight> ranges) {
    List<String> wanted = term.words();
    int count = 0;
    for (int i = 0; i + wanted.size() <= value.size(); i++) {
      boolean match = true;
      for (int j = 0; j < wanted.size() && match; j++) {
        String form = value.get(i + j).form();
        match = term.prefix() ? form.startsWith(wanted.get(j)) : form.equals(wanted.get(j));
      }
      if (match) {
        count++;
        if (ranges != null) {
          ranges.add(new SearchHit.Highlight(value.get(i).start(), value.get(i + wanted.size() - 1).end()));
        }
      }
    }
    return count;
  }

  private static Ranked position(SearchCursor cursor) {
    return new Ranked(cursor.score(), cursor.timestamp(), cursor.sessionId(), cursor.seq(), null);
  }

  /** One word of a string value: its form and where it was read. */
  private record Word(String form, int start, int end) {
  }

  /** A hit, or a cursor's position, by the members the order reads. */
  private record Ranked(int score, Instant timestamp, String sessionId, long seq, SearchHit hit) {

    Ranked(SearchHit hit) {
      this(hit.score(), hit.event().timestamp(), hit.event().sessionId(), hit.event().seq(), hit);
    }
  }
}
