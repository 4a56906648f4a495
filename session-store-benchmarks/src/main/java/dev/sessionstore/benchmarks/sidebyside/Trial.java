package dev.sessionstore.benchmarks.sidebyside;

/**
 * One operation of one side of a measure, run by {@link Interleave}: its {@code i}-th call, which returns how many
 * nanoseconds the measured part took. Work that must not count (undoing the operation, preparing the next one)
 * happens inside the call but outside that span.
 */
@FunctionalInterface
interface Trial {

  long run(int i) throws Exception;

  /** A trial that times the whole of {@code action}. */
  static Trial timed(Action action) {
    return i -> {
      long start = System.nanoTime();
      action.run(i);
      return System.nanoTime() - start;
    };
  }

  /**
   * A trial that makes its input with {@code prepare}, untimed, then times {@code action} on it: so both sides of a
   * measure time the store call alone, not the making of its arguments.
   */
  static <T> Trial timed(Input<T> prepare, Use<T> action) {
    return i -> {
      T input = prepare.make(i);
      long start = System.nanoTime();
      action.run(input);
      return System.nanoTime() - start;
    };
  }

  /**
   * A trial that times {@code action}, then undoes it with {@code undo}, untimed, given what the action returned: so
   * every call starts from the same state.
   */
  static <R> Trial undone(Call<R> action, Use<R> undo) {
    return i -> {
      long start = System.nanoTime();
      R result = action.run(i);
      long elapsed = System.nanoTime() - start;
      undo.run(result);
      return elapsed;
    };
  }

  /** A trial's {@code i}-th call, returning what its undo needs. */
  @FunctionalInterface
  interface Call<R> {
    R run(int i) throws Exception;
  }

  /** Makes the input of a trial's {@code i}-th call. */
  @FunctionalInterface
  interface Input<T> {
    T make(int i) throws Exception;
  }

  /** The timed work of a trial on its input. */
  @FunctionalInterface
  interface Use<T> {
    void run(T input) throws Exception;
  }

  /** The work of a {@link #timed} trial. */
  @FunctionalInterface
  interface Action {
    void run(int i) throws Exception;
  }
}
