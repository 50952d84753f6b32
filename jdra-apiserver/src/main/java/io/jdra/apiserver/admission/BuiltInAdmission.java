package io.jdra.apiserver.admission;

import io.jdra.api.features.FeatureGates;
import io.jdra.apiserver.rest.Cause;
import java.time.Clock;
import java.util.List;

/**
 * The server's own admission: resource.k8s.io kinds through {@link DraAdmission} (which validates
 * their metadata too), every other kind through {@link MetadataAdmission}. Thread-safe.
 */
public final class BuiltInAdmission implements Admission {
  private final MetadataAdmission metadata = new MetadataAdmission();
  private final DraAdmission dra;

  public BuiltInAdmission(FeatureGates gates, Clock clock) {
    this.dra = new DraAdmission(gates, clock);
  }

  @Override
  public List<Cause> admit(Request r) {
    return DraAdmission.handles(r.type()) ? dra.admit(r) : metadata.admit(r);
  }
}
