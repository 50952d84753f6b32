package io.jdra.controllers.namespace;

import io.fabric8.kubernetes.api.model.NamespaceCondition;
import io.fabric8.kubernetes.api.model.NamespaceConditionBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The status conditions the namespace controller maintains while it empties a namespace (upstream's
 * {@code namespaceConditionUpdater}): each of the five types is True with the failure's reason and
 * message, or False with its "ok" reason. Not thread-safe: one per sync.
 */
final class NamespaceConditions {
  static final String DISCOVERY_FAILURE = "NamespaceDeletionDiscoveryFailure";
  static final String GROUP_VERSION_PARSING_FAILURE = "NamespaceDeletionGroupVersionParsingFailure";
  static final String CONTENT_FAILURE = "NamespaceDeletionContentFailure";
  static final String CONTENT_REMAINING = "NamespaceContentRemaining";
  static final String FINALIZERS_REMAINING = "NamespaceFinalizersRemaining";

  /** In upstream's order. */
  static final List<String> TYPES =
      List.of(
          DISCOVERY_FAILURE,
          GROUP_VERSION_PARSING_FAILURE,
          CONTENT_FAILURE,
          CONTENT_REMAINING,
          FINALIZERS_REMAINING);

  private static final Map<String, String> OK_MESSAGES =
      Map.of(
          DISCOVERY_FAILURE, "All resources successfully discovered",
          GROUP_VERSION_PARSING_FAILURE, "All legacy kube types successfully parsed",
          CONTENT_FAILURE, "All content successfully deleted, may be waiting on finalization",
          CONTENT_REMAINING, "All content successfully removed",
          FINALIZERS_REMAINING, "All content successfully removed");

  private static final Map<String, String> OK_REASONS =
      Map.of(
          DISCOVERY_FAILURE, "ResourcesDiscovered",
          GROUP_VERSION_PARSING_FAILURE, "ParsedGroupVersions",
          CONTENT_FAILURE, "ContentDeleted",
          CONTENT_REMAINING, "ContentRemoved",
          FINALIZERS_REMAINING, "ContentRemoved");

  private final Instant now;
  private final List<NamespaceCondition> failures = new ArrayList<>();
  private final List<String> deleteContentErrors = new ArrayList<>();

  NamespaceConditions(Instant now) {
    this.now = now;
  }

  void discoveryFailed(Map<String, String> failedGroups) {
    failures.add(
        condition(
            DISCOVERY_FAILURE,
            "DiscoveryFailed",
            "Discovery failed for some groups, "
                + failedGroups.size()
                + " failing: unable to retrieve the complete list of server APIs: "
                + String.join(
                    ", ",
                    failedGroups.entrySet().stream()
                        .map(e -> e.getKey() + ": " + e.getValue())
                        .sorted()
                        .toList())));
  }

  void deleteContentFailed(String error) {
    deleteContentErrors.add(error);
  }

  /** Upstream's {@code ProcessContentTotals}: what is left, by resource and by finalizer. */
  void contentTotals(Map<String, Integer> remainingByResource, Map<String, Integer> byFinalizer) {
    List<String> resources =
        remainingByResource.entrySet().stream()
            .filter(e -> e.getValue() > 0)
            .map(e -> e.getKey() + " has " + e.getValue() + " resource instances")
            .sorted()
            .toList();
    if (!remainingByResource.isEmpty()) {
      failures.add(
          condition(
              CONTENT_REMAINING,
              "SomeResourcesRemain",
              "Some resources are remaining: " + String.join(", ", resources)));
    }
    List<String> finalizers =
        byFinalizer.entrySet().stream()
            .filter(e -> e.getValue() > 0)
            .map(e -> e.getKey() + " in " + e.getValue() + " resource instances")
            .sorted()
            .toList();
    if (!byFinalizer.isEmpty()) {
      failures.add(
          condition(
              FINALIZERS_REMAINING,
              "SomeFinalizerRemain",
              "Some finalizers are remaining: " + String.join(", ", finalizers)));
    }
  }

  /**
   * The namespace's conditions after this sync, or null when none changed (then nothing is
   * written). A condition's transition time changes only with its status.
   */
  List<NamespaceCondition> update(List<NamespaceCondition> current) {
    if (!deleteContentErrors.isEmpty()) {
      List<String> sorted = deleteContentErrors.stream().sorted().toList();
      failures.add(
          condition(
              CONTENT_FAILURE,
              "ContentDeletionFailed",
              "Failed to delete all resource types, "
                  + sorted.size()
                  + " remaining: "
                  + String.join(", ", sorted)));
    }
    List<NamespaceCondition> out = new ArrayList<>(current);
    boolean changed = false;
    for (String type : TYPES) {
      NamespaceCondition want =
          find(failures, type) != null
              ? find(failures, type)
              : condition(type, OK_REASONS.get(type), OK_MESSAGES.get(type), "False");
      NamespaceCondition old = find(out, type);
      if (old == null) {
        out.add(want);
        changed = true;
      } else if (!Objects.equals(old.getStatus(), want.getStatus())
          || !Objects.equals(old.getReason(), want.getReason())
          || !Objects.equals(old.getMessage(), want.getMessage())) {
        String time =
            Objects.equals(old.getStatus(), want.getStatus())
                ? old.getLastTransitionTime()
                : want.getLastTransitionTime();
        out.set(
            out.indexOf(old),
            new NamespaceConditionBuilder(want).withLastTransitionTime(time).build());
        changed = true;
      }
    }
    return changed ? out : null;
  }

  private NamespaceCondition condition(String type, String reason, String message) {
    return condition(type, reason, message, "True");
  }

  private NamespaceCondition condition(String type, String reason, String message, String status) {
    return new NamespaceConditionBuilder()
        .withType(type)
        .withStatus(status)
        .withReason(reason)
        .withMessage(message)
        .withLastTransitionTime(now.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString())
        .build();
  }

  private static NamespaceCondition find(List<NamespaceCondition> list, String type) {
    return list.stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
  }
}
