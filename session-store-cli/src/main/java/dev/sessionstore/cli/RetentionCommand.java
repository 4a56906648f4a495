package dev.sessionstore.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sessionstore.Capability;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.RetentionPolicy;
import dev.sessionstore.RetentionReport;
import dev.sessionstore.SessionStatus;
import dev.sessionstore.SessionStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code retention}: applies a retention policy once, now, through {@link dev.sessionstore.Retention}, or with
 * {@code --dry-run} reports what it would remove and writes nothing. The policy is built from the options (at least
 * one rule); what went is printed per kind. Stores that apply a policy on a schedule are configured on their builder,
 * not here.
 */
@Command(name = "retention",
    description = "Remove idle sessions, old chapters and old model-call rows now (or, with --dry-run, count them).")
final class RetentionCommand implements Callable<Integer> {

  @Mixin
  private HelpOption help;

  @ParentCommand
  private SessionStoreCli cli;

  @Spec
  private CommandSpec spec;

  @Option(names = "--idle-for", paramLabel = "<age>", converter = AgeConverter.class,
      description = "Delete sessions with no write and no event for longer than this (e.g. 30d, 12h, PT90M).")
  private Duration idleFor;

  @Option(names = "--status", paramLabel = "<status>",
      description = "With --idle-for: only sessions with this status (repeatable).")
  private List<String> statuses;

  @Option(names = "--tenant", paramLabel = "<tenant>", description = "With --idle-for: only sessions of this tenant.")
  private String tenant;

  @Option(names = "--keep-events", paramLabel = "<n>",
      description = "Cut whole chapters below the latest summary of sessions holding more than n events.")
  private Integer keepEvents;

  @Option(names = "--model-calls-older-than", paramLabel = "<age>", converter = AgeConverter.class,
      description = "Remove model-call audit rows recorded longer ago than this.")
  private Duration modelCallsOlderThan;

  @Option(names = "--dry-run", description = "Count what would be removed; write nothing.")
  private boolean dryRun;

  @Override
  public Integer call() {
    RetentionPolicy policy = policy();
    try (OpenedStore opened = cli.open(StoreOpener.Schema.EXISTING)) {
      SessionStore store = opened.store();
      if (!store.supports(Capability.RETENTION)) {
        throw new CliFailure(ExitCode.FAILURE, opened.target().describe() + " has no retention");
      }
      RetentionReport report = dryRun ? store.retention().dryRun(policy) : store.retention().apply(policy);
      print(report, opened.target().describe());
    }
    return ExitCode.OK.code();
  }

  private RetentionPolicy policy() {
    if (idleFor == null && keepEvents == null && modelCallsOlderThan == null) {
      throw new ParameterException(spec.commandLine(),
          "give at least one rule: --idle-for, --keep-events or --model-calls-older-than");
    }
    try {
      RetentionPolicy.Builder builder = RetentionPolicy.builder();
      if (idleFor != null) {
        builder.deleteSessionsIdleFor(idleFor);
      }
      if (statuses != null) {
        builder.onlyStatuses(statuses.stream().map(SessionStatus::of).toArray(SessionStatus[]::new));
      }
      if (tenant != null) {
        builder.onlyTenant(tenant);
      }
      if (keepEvents != null) {
        builder.keepEventsPerSession(keepEvents);
      }
      if (modelCallsOlderThan != null) {
        builder.deleteModelCallsOlderThan(modelCallsOlderThan);
      }
      return builder.build();
    } catch (InvalidArgumentException e) {
      throw new ParameterException(spec.commandLine(), optionOf(e.field()) + ": " + e.getMessage());
    }
  }

  /** The option that sets the policy member {@code field}. */
  private static String optionOf(String field) {
    return switch (field) {
      case "idleSessionAge" -> "--idle-for";
      case "idleStatuses" -> "--status";
      case "idleTenant" -> "--tenant";
      case "maxEventsPerSession" -> "--keep-events";
      case "modelCallAge" -> "--model-calls-older-than";
      default -> field;
    };
  }

  private void print(RetentionReport report, String target) {
    Output output = cli.output();
    if (output.json()) {
      ObjectNode result = Records.MAPPER.createObjectNode().put("store", target).put("dryRun", report.dryRun());
      result.put("sessions", report.sessions()).put("events", report.events()).put("modelCalls", report.modelCalls());
      output.json(result);
      return;
    }
    String verb = report.dryRun() ? "would remove" : "removed";
    output.field("store", target);
    output.field("sessions", verb + " " + report.sessions() + " idle, with all their events");
    output.field("events", verb + " " + report.events() + " below the latest summary of sessions kept");
    output.field("model calls", verb + " " + report.modelCalls());
  }
}
