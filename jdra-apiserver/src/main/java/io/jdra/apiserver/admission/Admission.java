package io.jdra.apiserver.admission;

import io.jdra.apiserver.meta.Cause;
import io.jdra.apiserver.registry.ResourceType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import tools.jackson.databind.node.ObjectNode;

/**
 * Mutating and validating admission of writes, before they are stored. Implementations must be
 * thread-safe and must not block on I/O; they may throw {@code ApiException} for failures other
 * than validation (e.g. 403 Forbidden).
 */
public interface Admission {

  /** The kind of write. */
  enum Operation {
    CREATE,
    UPDATE
  }

  /**
   * One write to admit.
   *
   * @param operation create or update
   * @param type the resource
   * @param subresource {@code ""} for the main resource, else e.g. {@code status}
   * @param object the object to store, in the storage version; implementations may change it
   *     (defaulting, dropping disabled fields)
   * @param oldObject the current object for updates, else null; never modify it
   * @param namespaceLabels labels of a namespace by name (empty when it does not exist)
   */
  record Request(
      Operation operation,
      ResourceType type,
      String subresource,
      ObjectNode object,
      ObjectNode oldObject,
      Function<String, java.util.Map<String, String>> namespaceLabels) {}

  /**
   * Mutates {@code request.object()} and validates it.
   *
   * @return validation failures; empty when the write may proceed
   */
  List<Cause> admit(Request request);

  /** Runs each admission in turn, collecting all causes; stops after the first that fails. */
  static Admission chain(List<Admission> all) {
    List<Admission> copy = List.copyOf(all);
    return r -> {
      List<Cause> causes = new ArrayList<>();
      for (Admission a : copy) {
        causes.addAll(a.admit(r));
        if (!causes.isEmpty()) {
          break;
        }
      }
      return causes;
    };
  }

  /** Admits everything unchanged. */
  Admission NONE = r -> List.of();
}
