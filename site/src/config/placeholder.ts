/** PLACEHOLDER_CONTRACT_ADDRESS is the shipped stand-in address, labelled on the page while in use. */
export const PLACEHOLDER_CONTRACT_ADDRESS = 'QUEENSoLANAP1aceho1derAddress11111111111111';
