import FuzzSupport

// Annotations: the inline form and the JSON form, then drawn over a small picture.
fuzzMain(AnnotationFuzz.run)
