// Every MCP tool, in the order tools/list shows them.
import type { ToolDefinition } from "../define-tool";
import { whoami } from "./account";
import {
  getDiagnosisTool,
  getSymptomTool,
  listAnimalTypesTool,
  listBreedsTool,
  listGendersTool,
  listSymptomCategoriesTool,
  searchDiagnosesTool,
  searchSymptomsTool,
} from "./catalogue";
import {
  createCaseTool,
  deselectSymptomsTool,
  getCaseTool,
  listCasesTool,
  selectSymptomsTool,
  updateCasePatientTool,
  waitForCaseTool,
} from "./cases";
import {
  createComponentSessionTool,
  generateSoapNotesTool,
  getDifferentialDiagnosesTool,
  selectDiagnosisTool,
} from "./diagnostics";

export const tools = [
  whoami,
  listAnimalTypesTool,
  listBreedsTool,
  listGendersTool,
  listSymptomCategoriesTool,
  searchSymptomsTool,
  getSymptomTool,
  searchDiagnosesTool,
  getDiagnosisTool,
  createCaseTool,
  getCaseTool,
  listCasesTool,
  waitForCaseTool,
  updateCasePatientTool,
  selectSymptomsTool,
  deselectSymptomsTool,
  getDifferentialDiagnosesTool,
  selectDiagnosisTool,
  generateSoapNotesTool,
  createComponentSessionTool,
] as unknown as ToolDefinition[];
