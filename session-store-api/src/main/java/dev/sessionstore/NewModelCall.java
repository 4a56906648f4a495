package dev.sessionstore;


/**
 * An audit row: exactly what was sent to the model in one turn.
 *
 * @param turn    the turn number; rows of a session are ordered by it, and recording a turn again replaces it
 * @param model   the model name
 * @param context the rendered context sent to the model
 * @param usage   usage reported for the call, {@code {}} when omitted
 */
public record NewModelCall(long turn, String model, Json context, Json usage) {

  /**
   * Builds the record, checking its members as described on the type.
   * @throws InvalidArgumentException naming the first member (as {@code field}) that is null or invalid
   */
  public NewModelCall {
    Checks.requireNonNegative("modelCall.turn", turn);
    Checks.requireKey("modelCall.model", model);
    Checks.requireNonNull("modelCall.context", context);
    usage = usage == null ? Json.emptyObject() : usage;
  }

  /**
   * A model call of {@code turn} to {@code model} with the context it was given, with empty usage.
   * @throws InvalidArgumentException naming the first member that is invalid ({@code modelCall.turn} negative, {@code
   *   modelCall.model} not a valid key, {@code modelCall.context} null)
   */
  public static NewModelCall of(long turn, String model, Json context) {
    return new NewModelCall(turn, model, context, null);
  }
}
