package io.jdra.api.validation;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** The request and subrequest names of a claim, for checking {@code req} or {@code req/sub}. */
final class RequestNames {
  private final Map<String, Set<String>> names;

  private RequestNames(Map<String, Set<String>> names) {
    this.names = names;
  }

  static RequestNames of(DeviceClaim claim) {
    Map<String, Set<String>> names = new HashMap<>();
    if (claim != null) {
      for (DeviceRequest r : Lists.nn(claim.getRequests())) {
        if (Lists.nn(r.getFirstAvailable()).isEmpty()) {
          names.put(MetaValidation.nz(r.getName()), null);
          continue;
        }
        Set<String> subs = new HashSet<>();
        for (DeviceSubRequest s : r.getFirstAvailable()) {
          subs.add(MetaValidation.nz(s.getName()));
        }
        names.put(MetaValidation.nz(r.getName()), subs);
      }
    }
    return new RequestNames(names);
  }

  /** Whether {@code ref} names a request, or a request and one of its subrequests. */
  boolean has(String ref) {
    String[] segments = ref.split("/", -1);
    if (segments.length > 2 || !names.containsKey(segments[0])) {
      return false;
    }
    if (segments.length == 1) {
      return true;
    }
    Set<String> subs = names.get(segments[0]);
    return subs != null && subs.contains(segments[1]);
  }
}
