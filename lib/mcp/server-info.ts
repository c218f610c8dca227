// What the MCP server tells clients about itself, on every transport.
export const MCP_SERVER_INFO = { name: "vetdx", version: "1.0.0" };

export const MCP_INSTRUCTIONS =
  "VetDx turns veterinary case notes into a structured patient, clinical signs, ranked differential diagnoses and SOAP notes. " +
  "Create a case with create_case, then wait_for_case; search the catalogue with search_symptoms and search_diagnoses; " +
  "rank differentials with get_differential_diagnoses.";
