package io.jdra.scheduler.plugins.tainttoleration;

import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.List;

/** Node taint toleration matching (upstream {@code v1helper.TolerationsTolerateTaint}). */
public final class Tolerations {
  private Tolerations() {}

  /** Whether any toleration tolerates the taint. */
  public static boolean tolerates(List<Toleration> tolerations, Taint taint) {
    if (tolerations == null) {
      return false;
    }
    for (Toleration t : tolerations) {
      if (tolerates(t, taint)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Upstream {@code Toleration.ToleratesTaint}: an empty effect matches every effect, an empty key
   * with {@code Exists} matches every key, {@code Exists} ignores the value, {@code Equal} (the
   * default operator) compares it.
   */
  public static boolean tolerates(Toleration t, Taint taint) {
    if (t.getEffect() != null
        && !t.getEffect().isEmpty()
        && !t.getEffect().equals(taint.getEffect())) {
      return false;
    }
    String key = t.getKey() == null ? "" : t.getKey();
    if (!key.isEmpty() && !key.equals(taint.getKey())) {
      return false;
    }
    String op = t.getOperator() == null || t.getOperator().isEmpty() ? "Equal" : t.getOperator();
    return switch (op) {
      case "Exists" -> true;
      case "Equal" -> nz(t.getValue()).equals(nz(taint.getValue()));
      default -> false;
    };
  }

  private static String nz(String s) {
    return s == null ? "" : s;
  }
}
