package io.jdra.cel;

import dev.cel.common.types.CelType;
import java.util.LinkedHashMap;
import java.util.Map;

/** One domain of {@code device.attributes} or {@code device.capacity}: id -> value. */
final class DomainView extends LazyMapValue {
  static final DomainView EMPTY = new DomainView(null, "");

  private final DomainsView parent; // null for EMPTY
  private final String domain;

  DomainView(DomainsView parent, String domain) {
    this.parent = parent;
    this.domain = domain;
  }

  @Override
  Object lookup(String id) {
    if (parent == null) {
      return null;
    }
    Object raw = parent.rawEntry(domain, id);
    return raw == null ? null : parent.convert(id, raw);
  }

  @Override
  Map<String, Object> materialize() {
    Map<String, Object> out = new LinkedHashMap<>();
    if (parent != null) {
      for (Map.Entry<String, ?> e : parent.raw().entrySet()) {
        if (parent.domainOf(e.getKey()).equals(domain)) {
          String id = DomainsView.idOf(e.getKey());
          out.put(id, parent.convert(id, e.getValue()));
        }
      }
    }
    return out;
  }

  @Override
  public boolean isEmpty() {
    if (parent == null) {
      return true;
    }
    for (String name : parent.raw().keySet()) {
      if (parent.domainOf(name).equals(domain)) {
        return false;
      }
    }
    return true;
  }

  @Override
  CelType mapType() {
    return CelEnvironment.INNER_DYN_MAP;
  }
}
