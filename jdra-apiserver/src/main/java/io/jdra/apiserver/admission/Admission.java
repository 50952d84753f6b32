package io.jdra.apiserver.admission;

import io.jdra.apiserver.auth.UserInfo;
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
    UPDATE,
    /** {@code object} is null, {@code oldObject} the object being deleted. */
    DELETE
  }

  /**
   * One write to admit.
   *
   * @param operation create or update
   * @param type the resource
   * @param subresource {@code ""} for the main resource, else e.g. {@code status}
   * @param object the object to store, in the storage version; implementations may change it
   *     (defaulting, dropping disabled fields). On an update through the server's built-in chain it
   *     may share with {@code oldObject} the parts the built-in admission of its kind changes only
   *     by replacing them (the server then never changes them in place; an admission given in
   *     {@code ApiServerOptions} turns that sharing off)
   * @param oldObject the current object for updates, else null; never modify it
   * @param namespaceLabels labels of a namespace by name (empty when it does not exist)
   * @param user who asks, or null for the server itself (its own controllers)
   */
  record Request(
      Operation operation,
      ResourceType type,
      String subresource,
      ObjectNode object,
      ObjectNode oldObject,
      Function<String, java.util.Map<String, String>> namespaceLabels,
      UserInfo user) {
    /** A request of the server itself. */
    public Request(
        Operation operation,
        ResourceType type,
        String subresource,
        ObjectNode object,
        ObjectNode oldObject,
        Function<String, java.util.Map<String, String>> namespaceLabels) {
      this(operation, type, subresource, object, oldObject, namespaceLabels, null);
    }
  }

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
      // the first admission with causes ends the chain; most writes have none (no list copies)
      for (Admission a : copy) {
        List<Cause> causes = a.admit(r);
        if (!causes.isEmpty()) {
          return new ArrayList<>(causes);
        }
      }
      return new ArrayList<>();
    };
  }

  /**
   * Runs {@code a} for creates and updates of objects only: deletes and requests on the {@code
   * eviction} subresource (whose object is an Eviction, not the pod) pass. For admissions written
   * for objects being stored.
   */
  static Admission objectWrites(Admission a) {
    return r ->
        r.operation() == Operation.DELETE || r.subresource().equals("eviction")
            ? List.of()
            : a.admit(r);
  }

  /** Admits everything unchanged. */
  Admission NONE = r -> List.of();
}
