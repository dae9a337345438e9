export { branchStep as branch } from './step.js';
