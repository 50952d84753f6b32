package io.jdra.apiserver.auth;

import java.util.ArrayList;
import java.util.List;

/**
 * Decides whether a request may proceed, before admission and before anything is read, as
 * upstream's authorizers. Implementations are thread-safe and answer from memory (no I/O).
 */
public interface Authorizer {
  Decision authorize(Attributes attributes);

  /**
   * Asks each in turn, as upstream's union authorizer: the first allow or deny wins; when all have
   * no opinion, their reasons are joined for the 403.
   */
  static Authorizer union(List<Authorizer> all) {
    List<Authorizer> copy = List.copyOf(all);
    return a -> {
      List<String> reasons = new ArrayList<>();
      for (Authorizer z : copy) {
        Decision d = z.authorize(a);
        if (d.kind() != Decision.Kind.NO_OPINION) {
          return d;
        }
        if (!d.reason().isEmpty()) {
          reasons.add(d.reason());
        }
      }
      return Decision.noOpinion(String.join("\n", reasons));
    };
  }

  /** Allows everything: the server without authentication. */
  Authorizer ALWAYS_ALLOW = a -> Decision.ALLOW;
}
